import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  availableConsoleCommands,
  CONSOLE_COMMAND_MAX,
  consoleCommandMessages,
  consoleCommandPermission,
  consoleCommands,
  PLAYER_GEMS_MAX,
  parseConsoleCommand,
  SECRET_MASK,
} from '../src/index.ts';

const parsed = (input: string, bench = false) => {
  const r = parseConsoleCommand(input, { bench });
  if (!r.ok) assert.fail(`${JSON.stringify(input)} was refused: ${r.message}`);
  return r.command;
};
const refusal = (input: string, bench = false) => {
  const r = parseConsoleCommand(input, { bench });
  if (r.ok) assert.fail(`${JSON.stringify(input)} was read as ${r.command.line}`);
  return r.message;
};

describe('console command grammar', () => {
  it('reads every spelling of stop as the power command stop', () => {
    const spellings = [
      'stop',
      'STOP',
      'Stop',
      '  stop  ',
      '\tstop\t',
      '/stop',
      '/ stop',
      '/STOP',
      'ｓｔｏｐ', // fullwidth
      'ＳＴＯＰ',
      '／ｓｔｏｐ', // fullwidth solidus
      's\u200dtop', // zero-width joiner
      's\u200btop', // zero-width space
      'st\u2060op', // word joiner
      '\ufeffstop', // byte-order mark
      'sto\u00adp', // soft hyphen
      '\u202estop', // right-to-left override
      'stop\ufe0f', // variation selector
      '\u00a0stop\u3000', // no-break and ideographic spaces
      'ſtop', // long s
      'shutdown',
      'EXIT',
      '/quit',
    ];
    for (const s of spellings) {
      const c = parsed(s);
      assert.equal(c.name, 'stop', JSON.stringify(s));
      assert.equal(c.class, 'power', JSON.stringify(s));
      assert.equal(c.line, 'stop', JSON.stringify(s));
      assert.equal(consoleCommandPermission(c.class), 'server:actions');
    }
  });

  it('never reads stop with arguments or control characters as anything but a refusal', () => {
    for (const s of ['stop now', 'stop\tnow', 'STOP  -f', 'ｓｔｏｐ ｎｏｗ', 'quit please'])
      assert.equal(refusal(s), 'Usage: stop', JSON.stringify(s));
    for (const s of [
      'stop\u0000',
      'stop\nsay hi',
      'say hi\rstop',
      '\u001bstop',
      'stop\u007f',
      'stop\u0085',
      'st\ud800op',
    ])
      assert.equal(refusal(s), consoleCommandMessages.controlCharacters, JSON.stringify(s));
  });

  it('refuses unknown commands and look-alikes that are not the same letters', () => {
    const unknown: [string, string][] = [
      ['restart', 'restart'],
      ['stopp', 'stopp'],
      ['//stop', '/stop'],
      ['ѕtop', 'ѕtop'], // Cyrillic dze
      ['st op', 'st'],
      ['frobnicate now', 'frobnicate'],
    ];
    for (const [s, word] of unknown)
      assert.equal(refusal(s), `Unknown command "${word}". Type "help" for the list of commands.`, s);
    assert.equal(
      refusal('x'.repeat(100)),
      `Unknown command "${'x'.repeat(32)}…". Type "help" for the list of commands.`,
    );
    assert.deepEqual(parseConsoleCommand('  Frobnicate\t now '), {
      ok: false,
      message: consoleCommandMessages.unknown('Frobnicate'),
      text: 'Frobnicate now',
    });
    const textOf = (input: string) => {
      const r = parseConsoleCommand(input);
      return r.ok ? assert.fail(input) : r.text;
    };
    assert.equal(textOf('STOP  now'), 'STOP now');
    assert.equal(textOf('stop\u0000'), undefined, 'a line with control characters is not given back');
    assert.equal(refusal('   '), 'Command cannot be empty.');
    assert.equal(refusal('/'), 'Command cannot be empty.');
    assert.equal(refusal('\u200b\u200d'), 'Command cannot be empty.');
  });

  it('classifies every other command as console and tokenises its arguments', () => {
    const c = parsed('  /SAY   hello\t\tthe  world ');
    assert.deepEqual(c, {
      name: 'say',
      class: 'console',
      args: ['hello', 'the', 'world'],
      rest: 'hello the world',
      line: 'say hello the world',
      shown: 'say hello the world',
    });
    assert.equal(consoleCommandPermission(c.class), 'console:use');
    assert.deepEqual(parsed('ｇｉｖｅ Ｇｒｏｗｅｒ１ gems ９').args, ['Grower1', 'gems', '9']);
    for (const [name, spec] of Object.entries(consoleCommands))
      if (name !== 'stop') assert.notEqual(spec.class, 'power', name);
  });

  it('masks secret arguments in what is echoed and logged, never in what is run', () => {
    const c = parsed('register Newbie1 hunter22');
    assert.equal(c.line, 'register Newbie1 hunter22');
    assert.equal(c.shown, `register Newbie1 ${SECRET_MASK}`);
    assert.equal(consoleCommandPermission(c.class), 'console:use');
    const refused = parseConsoleCommand('register Newbie1 two words');
    assert.equal(refused.ok, false);
    assert.equal(refused.ok ? '' : refused.text, 'register', 'a refused line is echoed without its arguments');
  });

  it('checks the number of arguments', () => {
    assert.equal(refusal('say'), 'Usage: say <message>');
    assert.equal(refusal('give Grower1'), 'Usage: give <player> <item|gems> [amount]');
    assert.equal(refusal('kick a b'), 'Usage: kick <player>');
    assert.equal(refusal('help me'), 'Usage: help');
    assert.equal(parsed('ban a spamming the chat').rest, 'a spamming the chat');
  });

  it('knows benchmark commands only when asked to', () => {
    assert.match(refusal('flood 10'), /^Unknown command "flood"/);
    assert.match(refusal('hog 100'), /^Unknown command "hog"/, 'no tenant can make an engine eat memory');
    assert.equal(parsed('flood 10 100', true).class, 'bench');
    assert.equal(parsed('hog 100 heap', true).class, 'bench');
    assert.deepEqual(
      availableConsoleCommands().map(([n]) => n),
      Object.keys(consoleCommands).filter((n) => n !== 'flood' && n !== 'hog'),
    );
    assert.ok(availableConsoleCommands({ bench: true }).some(([n]) => n === 'flood'));
    assert.ok(availableConsoleCommands({ bench: true }).some(([n]) => n === 'hog'));
  });

  it('bounds the length, also after normalising', () => {
    assert.equal(parsed(`say ${'a'.repeat(CONSOLE_COMMAND_MAX - 4)}`).line.length, CONSOLE_COMMAND_MAX);
    assert.equal(refusal(`say ${'a'.repeat(CONSOLE_COMMAND_MAX - 3)}`), consoleCommandMessages.tooLong);
    // U+FDFA is one character that NFKC turns into eighteen.
    assert.equal(refusal(`say ${'\ufdfa'.repeat(100)}`), consoleCommandMessages.tooLong);
    assert.equal(refusal(`say ${'a'.repeat(100_000)}`), consoleCommandMessages.tooLong);
  });

  it('gives back a canonical line that reads as the same command', () => {
    for (const s of [
      'ＳＡＹ  ｈｉ\u200d there',
      '/give a world\tlock 5',
      'say \u00b4x \u0301',
      'quit',
      'worlds  START',
    ])
      assert.deepEqual(parsed(parsed(s).line), parsed(s), s);
  });

  it('takes the gems maximum from the player record', () => {
    assert.equal(PLAYER_GEMS_MAX, 2_147_483_647);
  });
});

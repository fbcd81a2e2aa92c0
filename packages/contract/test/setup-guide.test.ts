import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  FEEDBACK_MESSAGE_MAX,
  feedbackMessages,
  feedbackRequestSchema,
  GAME_HOSTNAMES,
  hostsLines,
  SETUP_LANGUAGES,
  SETUP_PLATFORMS,
  setupGuideContent,
  surgeProfile,
} from '../src/index.ts';

it('hosts lines put the two www hostnames first, each pointing at the IP', () => {
  assert.deepEqual(hostsLines('10.0.0.5').slice(0, 2), ['10.0.0.5 www.growtopia1.com', '10.0.0.5 www.growtopia2.com']);
  assert.equal(hostsLines('10.0.0.5').length, GAME_HOSTNAMES.length);
});

it('the Surge profile has the General, Rule and Host sections in order', () => {
  const lines = surgeProfile('10.0.0.5').trimEnd().split('\n');
  assert.deepEqual(lines.slice(0, 7), [
    '[General]',
    'bypass-system = true',
    '[Rule]',
    'FINAL,DIRECT',
    '[Host]',
    'www.growtopia1.com = 10.0.0.5',
    'www.growtopia2.com = 10.0.0.5',
  ]);
});

it('both languages have every platform, with steps, distinct per language', () => {
  assert.deepEqual(SETUP_LANGUAGES, ['ID', 'EN']);
  for (const platform of SETUP_PLATFORMS) {
    const id = setupGuideContent.ID.platforms[platform];
    const en = setupGuideContent.EN.platforms[platform];
    assert.ok(id.steps.length >= 4 && id.steps.length === en.steps.length, platform);
    assert.notDeepEqual(id.steps, en.steps);
    for (const text of [...id.steps, ...en.steps, id.title, en.title, id.note, en.note]) assert.ok(text.trim());
  }
  // The Windows guide names the hosts file and the flush command in both languages.
  for (const language of SETUP_LANGUAGES) {
    const steps = setupGuideContent[language].platforms.windows.steps.join(' ');
    assert.match(steps, /C:\\Windows\\System32\\drivers\\etc\\hosts/);
    assert.match(steps, /ipconfig \/flushdns/);
  }
});

it('feedback: the message is trimmed and bounded, the type is one of three', () => {
  assert.deepEqual(feedbackRequestSchema.parse({ type: 'Bug Report', message: '  hi  ' }), {
    type: 'Bug Report',
    message: 'hi',
  });
  const issue = (body: unknown) => feedbackRequestSchema.safeParse(body).error?.issues[0]?.message;
  assert.equal(issue({ type: 'Suggestion', message: '   ' }), feedbackMessages.empty);
  assert.equal(issue({ type: 'Suggestion', message: 'x'.repeat(FEEDBACK_MESSAGE_MAX + 1) }), feedbackMessages.tooLong);
  assert.equal(issue({ type: 'Praise', message: 'x' }), feedbackMessages.invalidType);
});

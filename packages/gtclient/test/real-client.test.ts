// What the client sends, byte for byte, against the real client 5.51 as the domain notes and the reference facts
// describe it: the server_data.php form, both login texts in their order, the message type of every action.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { serverDataForm } from '../src/http.ts';
import { parseLogon, readItemsTank } from '../src/protocol/items.ts';
import { encodeText } from '../src/protocol/messages.ts';
import {
  ACTION_MESSAGE_TYPE,
  chatInput,
  encodeAction,
  frontLoginLines,
  gameLoginLines,
  joinRequest,
} from '../src/protocol/real-client.ts';
import { htmlErrorText } from '../src/token.ts';

const bytes = (type: number, text: string) =>
  Buffer.concat([Buffer.from([type, 0, 0, 0]), Buffer.from(text, 'latin1'), Buffer.from([0])]);

test('server_data.php form: platform 0, protocol 225, version 5.51, in that order', () => {
  assert.equal(new URLSearchParams(serverDataForm()).toString(), 'platform=0&protocol=225&version=5.51');
});

test('front login text: type 2, protocol|225 first, ltoken second, then platformID', () => {
  assert.deepEqual(
    encodeText(2, frontLoginLines({ token: 'dG9rZW4=' })),
    bytes(2, 'protocol|225\nltoken|dG9rZW4=\nplatformID|0,1,1'),
  );
});

test('game-server login text: type 2, tankIDName first, OnSendToServer values last, the real field set', () => {
  const sent = encodeText(
    2,
    gameLoginLines({
      user: '17',
      token: '4242',
      uuidToken: '0123456789abcdef0123456789abcdef',
      doorId: '0',
      meta: 'm3ta',
    }),
  );
  assert.deepEqual(
    sent,
    bytes(
      2,
      [
        'tankIDName|',
        'tankIDPass|',
        'requestedName|Bot',
        'f|1',
        'protocol|225',
        'game_version|5.51',
        'fz|22243512',
        'cbits|1024',
        'player_age|20',
        'GDPR|2',
        'FCMToken|',
        'category|_-5100',
        'totalPlaytime|0',
        'klv|0000000000000000000000000000000000000000000000000000000000000000',
        'hash2|0',
        'meta|m3ta',
        'fhash|-716928004',
        'rid|00000000000000000000000000000000',
        'platformID|0,1,1',
        'deviceVersion|0',
        'country|us',
        'hash|0',
        'mac|02:00:00:00:00:00',
        'wk|00000000000000000000000000000000',
        'zf|0',
        'lmode|1',
        'user|17',
        'token|4242',
        'UUIDToken|0123456789abcdef0123456789abcdef',
        'doorID|0',
        'aat|2',
      ].join('\n'),
    ),
  );
  // Gurotopia dispatches on the first key and wants at least 41 `|`-separated tokens once `\n` became `|`.
  assert.ok(sent.subarray(4, -1).toString().replace(/\n/g, '|').split('|').length >= 41);
});

test('each action goes with the real client message type: 2 for UI and chat, 3 for world moves', () => {
  assert.deepEqual(encodeAction('enter_game'), bytes(2, 'action|enter_game'));
  assert.deepEqual(encodeAction('refresh_item_data'), bytes(2, 'action|refresh_item_data'));
  assert.deepEqual(chatInput('hi all'), bytes(2, 'action|input\n|text|hi all'));
  assert.deepEqual(
    encodeAction('dialog_return', 'dialog_name|x\nbuttonClicked|ok'),
    bytes(2, 'action|dialog_return\ndialog_name|x\nbuttonClicked|ok'),
  );
  assert.deepEqual(joinRequest('START'), bytes(3, 'action|join_request\nname|START\ninvitedWorld|0'));
  assert.deepEqual(encodeAction('quit_to_exit'), bytes(3, 'action|quit_to_exit'));
  assert.deepEqual(encodeAction('quit'), bytes(3, 'action|quit'));
  assert.deepEqual(ACTION_MESSAGE_TYPE, {
    enter_game: 2,
    refresh_item_data: 2,
    input: 2,
    dialog_return: 2,
    join_request: 3,
    quit_to_exit: 3,
    quit: 3,
  });
});

test('OnSuperMainStartAcceptLogon: 5 arguments (Gurotopia, 5.51) or 6 with the tribute hash (GrowServer)', () => {
  const settings = 'proto=225|choosemusic=audio/mp3/about_theme.mp3|active_holiday=0|server_tick=31402182|';
  const five = parseLogon([
    2966867045,
    'ubistatic-a.akamaihd.net',
    '0098/150726456789/cache/',
    'cc.cz.madkite.freedom',
    settings,
  ]);
  assert.equal(five.itemsHash, 2966867045);
  assert.equal(five.cdnHost, 'ubistatic-a.akamaihd.net');
  assert.equal(five.cdnPath, '0098/150726456789/cache/');
  assert.equal(five.blockedApps, 'cc.cz.madkite.freedom');
  assert.equal(five.settingsFields.get('proto'), '225');
  assert.equal(five.settingsFields.get('choosemusic'), 'audio/mp3/about_theme.mp3');
  assert.equal(five.playerTributeHash, null);
  assert.equal(parseLogon([1, 'h', 'p', '', settings, 0]).playerTributeHash, 0);
  assert.throws(() => parseLogon(['nope']), /items\.dat hash/);
});

test('items.dat tank 16: zlib data whose value field is the uncompressed size; anything else is refused', () => {
  const items = Buffer.from('items '.repeat(50));
  assert.deepEqual(readItemsTank({ value: items.length, extended: deflateSync(items) }), items);
  assert.throws(
    () => readItemsTank({ value: 0, extended: deflateSync(items) }),
    /value field 0 is not the uncompressed size 300/,
  );
  assert.throws(() => readItemsTank({ value: items.length, extended: items }), /not hold a zlib stream/);
});

test('a login page error shown as HTML reads as its message', () => {
  const page =
    '<html><body><form><div class="text-danger text-danger-wrapper"><ul><li>Account credentials missmatched. You have 4 attempt(s) left.</li></ul></div><div class="row div-content-center">x</div></form></body></html>';
  assert.equal(htmlErrorText(page), 'Account credentials missmatched. You have 4 attempt(s) left.');
  assert.equal(
    htmlErrorText('<html><body><p>Server &quot;X&quot; is asleep &amp; waking.</p></body></html>'),
    'Server "X" is asleep & waking.',
  );
  assert.equal(htmlErrorText('Unauthorized: bad token'), 'Unauthorized: bad token');
});

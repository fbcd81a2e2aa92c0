import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  assistantMessages as a,
  collaboratorPermissions,
  defaultSettings,
  hostsLines,
  setupGuideContent,
  setupGuideMessages,
} from '@canopy/contract';
import { type CallerState, startBlockers } from '../src/assistant/caller-state.ts';
import { offlineAnswer, platformsOf, type SetupLinks, topicOf } from '../src/assistant/offline-helper.ts';
import { systemPrompt } from '../src/assistant/system-prompt.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const DAY = 24 * 3600 * 1000;
const links: NonNullable<SetupLinks> = {
  ip: '203.0.113.7',
  hostsLines: hostsLines('203.0.113.7'),
  tunnelUrl: 'https://panel.example/setup/powertunnel.txt',
  surgeUrl: 'https://panel.example/setup/surge.conf',
  loginPage: { host: null, certificate: 'self-signed' },
};

const myServer: NonNullable<CallerState['server']> = {
  name: 'MyServer',
  role: 'owner',
  permissions: [],
  status: 'OFFLINE',
  players: 0,
  version: 'N/A',
  crashLoop: false,
};

/** An owner of MyServer, OFFLINE, with room and time: nothing blocks Start. */
function state(overrides: Partial<CallerState> = {}): CallerState {
  return {
    now: NOW,
    username: 'alice',
    growId: 'AliceG',
    accountType: 'Free',
    isAdmin: false,
    credit: 0,
    slots: 0,
    ban: null,
    server: myServer,
    time: { phase: 'active', expiresAt: NOW + 5 * DAY, graceEndsAt: NOW + 8 * DAY, pendingMs: 0 },
    storage: { usedMB: 12, limitMB: 256, full: false },
    settings: defaultSettings,
    ...overrides,
  };
}
const server = (s: Partial<NonNullable<CallerState['server']>>) => ({ ...myServer, ...s });

describe('offline helper: topics', () => {
  const cases: [string, string][] = [
    ['How do I start my server?', 'start'],
    ["Why can't I start my server?", 'start_disabled'],
    ['why can’t i start', 'start_disabled'],
    ['The start button is disabled', 'start_disabled'],
    ['Kenapa server saya tidak bisa dinyalakan?', 'start_disabled'],
    ['What does the grace period mean?', 'grace'],
    ['When does my server expire?', 'grace'],
    ['What happens when my time runs out?', 'grace'],
    ['Apa yang terjadi kalau waktu server habis?', 'grace'],
    ['How do I connect from Windows?', 'connect'],
    ['How do I run the game on my Android phone?', 'connect'],
    ['How to play on iPhone', 'connect'],
    ['How do I add a collaborator?', 'collaborator'],
    ['Can I invite a friend to help?', 'collaborator'],
    ['Tell me a joke', 'fallback'],
  ];
  for (const [question, topic] of cases) it(`"${question}" → ${topic}`, () => assert.equal(topicOf(question), topic));

  it('names the platforms a question asks about, all three when none', () => {
    assert.deepEqual(platformsOf('connect from my pc'), ['windows']);
    assert.deepEqual(platformsOf('android and ipad'), ['android', 'ios']);
    assert.deepEqual(platformsOf('how do I connect?'), ['windows', 'android', 'ios']);
  });
});

describe('offline helper: answers use the live state', () => {
  it('every answer says plainly that it is the offline helper', () => {
    for (const q of ['How do I start my server?', 'grace period?', 'connect from iOS', 'add a collaborator', 'hi'])
      assert.ok(offlineAnswer(q, state(), links).endsWith(`(${a.offlineDisclaimer})`), q);
  });

  it('why Start is disabled: storage full, with the figures', () => {
    const full = state({ storage: { usedMB: 300, limitMB: 256, full: true } });
    const text = offlineAnswer("Why can't I start?", full, links);
    assert.match(
      text,
      /^Your server MyServer is OFFLINE with 0 players online\. Start is disabled because storage is full \(300MB of 256MB\), which blocks starting\./,
    );
    // The figures are said once.
    assert.equal(text.split('300MB of 256MB').length, 2);
    assert.match(text, /storage upgrade on Renew & Shop/);
  });

  it('why Start is disabled: each blocker is named', () => {
    const cases: [Partial<CallerState>, RegExp][] = [
      [{ server: null }, /You do not have a server yet/],
      [{ ban: { reason: 'cheating', bannedBy: 'System', expires: null } }, /your account is banned/],
      [{ settings: { ...defaultSettings, disableServerActions: true } }, /disabled by an administrator/],
      [
        { server: server({ role: 'collaborator', permissions: ['worlds:manage'] }) },
        /without the server:actions permission/,
      ],
      [{ time: { phase: 'grace', expiresAt: NOW - DAY, graceEndsAt: NOW + 2 * DAY, pendingMs: 0 } }, /grace period/],
      [
        { time: { phase: 'expired', expiresAt: NOW - 4 * DAY, graceEndsAt: NOW - DAY, pendingMs: 0 } },
        /grace period is over/,
      ],
      [{ server: server({ status: 'ONLINE', players: 3 }) }, /already ONLINE/],
      [{ server: server({ status: 'STARTING' }) }, /action is in progress \(the server is STARTING\)/],
    ];
    for (const [overrides, expected] of cases)
      assert.match(offlineAnswer('why is start disabled', state(overrides), links), expected);
    // An admin is not held by the switch; a collaborator with server:actions is not held either.
    assert.deepEqual(
      startBlockers(state({ isAdmin: true, settings: { ...defaultSettings, disableServerActions: true } })),
      [],
    );
    assert.deepEqual(
      startBlockers(state({ server: server({ role: 'collaborator', permissions: ['server:actions'] }) })),
      [],
    );
    assert.match(offlineAnswer('why is start disabled', state(), links), /Nothing blocks Start right now/);
  });

  it('how to start: the steps, and what blocks it now', () => {
    assert.match(offlineAnswer('How do I start my server?', state(), links), /press Start on your server card/);
    const blocked = offlineAnswer('How do I start my server?', state({ server: server({ status: 'ONLINE' }) }), links);
    assert.match(blocked, /But right now Start is disabled: the server is already ONLINE/);
    const none = offlineAnswer('How do I start my server?', state({ server: null, slots: 1 }), links);
    assert.match(none, /You have 1 server slot: press Create Server/);
    assert.match(offlineAnswer('start', state({ server: null, slots: 2 }), links), /You have 2 server slots:/);
    // A banned user cannot create a server: the helper must not send them to the Create button.
    const ban = { reason: 'spam', bannedBy: 'System', expires: null };
    const banned = offlineAnswer('How do I start my server?', state({ server: null, slots: 1, ban }), links);
    assert.match(banned, /Your account is banned, so you cannot create or start a server/);
    assert.doesNotMatch(banned, /press Create Server/);
    assert.match(offlineAnswer('start', state({ server: null, slots: 0 }), links), /no available server slots/);
  });

  it('the grace period: the rule and where the caller stands', () => {
    assert.match(offlineAnswer('grace period?', state(), links), /3-day grace period/);
    assert.match(offlineAnswer('grace period?', state(), links), /runs out on 27\/11\/2026, 12:00 UTC/);
    const inGrace = state({ time: { phase: 'grace', expiresAt: NOW - DAY, graceEndsAt: NOW + 2 * DAY, pendingMs: 0 } });
    assert.match(
      offlineAnswer('grace period?', inGrace, links),
      /in its grace period now: it ends on 24\/11\/2026, 12:00 UTC/,
    );
    const permanent = state({ time: { phase: 'permanent', expiresAt: null, graceEndsAt: null, pendingMs: 0 } });
    assert.match(offlineAnswer('when does it expire', permanent, links), /permanent, so it never runs out/);
    const waiting = state({
      server: null,
      time: { phase: 'pending', expiresAt: null, graceEndsAt: null, pendingMs: 7 * DAY },
    });
    assert.match(offlineAnswer('when does it expire', waiting, links), /Your server time \(7 days\) starts to run/);
  });

  it("how to connect: the Setup Guide's steps with the hosts lines and the URLs", () => {
    const windows = offlineAnswer('How do I connect from Windows?', state(), links);
    for (const step of setupGuideContent.EN.platforms.windows.steps) assert.ok(windows.includes(step), step);
    for (const line of hostsLines(links.ip)) assert.ok(windows.includes(line), line);
    assert.ok(!windows.includes('PowerTunnel'), 'only the platform asked about');
    const android = offlineAnswer('connect on android', state(), links);
    assert.ok(android.includes(`Tunnel URL: ${links.tunnelUrl}`));
    assert.ok(
      android.includes(`\n${setupGuideContent.EN.platforms.android.title}\n`),
      'the title once, on its own line',
    );
    assert.doesNotMatch(android, /Android\W+Android/);
    for (const step of setupGuideContent.EN.platforms.android.steps) assert.ok(android.includes(step), step);
    const ios = offlineAnswer('connect on iOS', state(), links);
    assert.ok(ios.includes(`Profile URL: ${links.surgeUrl}`));
    for (const step of setupGuideContent.EN.platforms.ios.steps) assert.ok(ios.includes(step), step);
    // An address that cannot be resolved right now: the steps, and the Setup Guide's text instead of lines.
    const unresolved = offlineAnswer('windows', state(), null);
    assert.ok(unresolved.includes(setupGuideMessages.ipUnresolved));
    assert.ok(!unresolved.includes('Hosts lines'));
  });

  it('how to add a collaborator: owner, collaborator, no server', () => {
    assert.match(offlineAnswer('add a collaborator', state(), links), /Collaborators page.*You own MyServer/s);
    // Every permission the contract knows, named as the api stores it.
    for (const p of collaboratorPermissions)
      assert.ok(offlineAnswer('add a collaborator', state(), links).includes(p), p);
    const c = state({ server: server({ role: 'collaborator', permissions: ['worlds:manage'] }) });
    assert.match(
      offlineAnswer('add a collaborator', c, links),
      /collaborator on MyServer with worlds:manage, so only its owner/,
    );
    assert.match(offlineAnswer('add a collaborator', state({ server: null }), links), /need a server of your own/);
  });

  it('the fallback lists what it can help with and the server', () => {
    const text = offlineAnswer('Tell me a joke', state(), links);
    assert.match(text, /I can help with: how to start your server/);
    assert.match(text, /Your server MyServer is OFFLINE with 0 players online/);
    assert.match(offlineAnswer('joke', state({ server: server({ players: 1 }) }), links), /with 1 player online/);
  });
});

describe('system prompt', () => {
  it('holds the panel knowledge and the caller’s state', () => {
    const s = state({ storage: { usedMB: 300, limitMB: 256, full: true }, credit: 42 });
    const prompt = systemPrompt(s, links);
    assert.match(prompt, /You are SkyHelper/);
    assert.match(prompt, /3-day grace period/);
    assert.match(prompt, /Server: MyServer \(owner\); status OFFLINE; players 0/);
    assert.match(prompt, /GrowID: AliceG/);
    assert.match(prompt, /Storage: 300MB used of 256MB \(full\)/);
    assert.match(prompt, /Credit: 42/);
    assert.match(prompt, /Start blocked by: storage is full/);
    assert.ok(prompt.includes(links.tunnelUrl));
    assert.ok(prompt.includes(links.hostsLines[0] ?? 'none'));
  });
});

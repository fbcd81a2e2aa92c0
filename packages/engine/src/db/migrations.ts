/** One schema change of the engine's database, applied once in its own transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

// Worlds keep their tiles as one compressed blob (worlds/tiles.ts): a 100x60 world is 6,000 tiles,
// and a row per tile would make a 10,000-world server hold 60 million rows. The blobs live in their
// own table and the lists read covering indexes, so listing 10,000 worlds touches a few hundred
// pages instead of every world's row.
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'worlds, players and meta',
    sql: `
      CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
      CREATE TABLE worlds (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        owner TEXT NOT NULL DEFAULT '',
        entry_level INTEGER NOT NULL DEFAULT 1,
        ct INTEGER NOT NULL DEFAULT 0,
        d_weather INTEGER NOT NULL DEFAULT 0,
        music_bpm INTEGER NOT NULL DEFAULT 100,
        w_s INTEGER NOT NULL DEFAULT 0,
        r INTEGER NOT NULL DEFAULT 255,
        g INTEGER NOT NULL DEFAULT 128,
        b INTEGER NOT NULL DEFAULT 64,
        weather INTEGER NOT NULL DEFAULT 0,
        admins TEXT NOT NULL DEFAULT '[]',
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE world_tiles (
        world_id INTEGER PRIMARY KEY REFERENCES worlds(id) ON DELETE CASCADE,
        tiles BLOB NOT NULL
      );
      CREATE INDEX worlds_list ON worlds (name, owner, d_weather);
      CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        pass_hash TEXT NOT NULL,
        email TEXT NOT NULL DEFAULT '',
        home_world TEXT NOT NULL DEFAULT '',
        level INTEGER NOT NULL DEFAULT 1,
        gems INTEGER NOT NULL DEFAULT 0,
        xp INTEGER NOT NULL DEFAULT 0,
        wl_bank_amount INTEGER NOT NULL DEFAULT 0,
        dl_bank_amount INTEGER NOT NULL DEFAULT 0,
        flags TEXT NOT NULL DEFAULT '{}',
        roles TEXT NOT NULL DEFAULT '[]',
        inventory TEXT NOT NULL DEFAULT '[]',
        banned INTEGER NOT NULL DEFAULT 0,
        ban_reason TEXT,
        banned_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX players_list ON players (name_key, name, level, gems, roles);
    `,
  },
  {
    // The list answers \`banned\` too; without it in the index every row was read from the table (whose rows
    // hold the inventory and password hash): the full 10,000-player list took 12 ms in SQLite, now 3.4 ms.
    version: 2,
    name: 'players list index covers banned',
    sql: `
      CREATE INDEX players_list_v2 ON players (name_key, name, level, gems, roles, banned);
      DROP INDEX players_list;
    `,
  },
  {
    // Game tokens are single-use: the nonces of those already used live here until the token expires, so a spent
    // token stays spent across an engine restart (an in-memory book forgot them; issue 20, point 6).
    version: 3,
    name: 'used game tokens',
    sql: `
      CREATE TABLE used_tokens (
        nonce TEXT PRIMARY KEY,
        exp INTEGER NOT NULL
      );
      CREATE INDEX used_tokens_exp ON used_tokens (exp);
    `,
  },
  {
    // Every world and player carries the revision it is at, which the panel sends back with a whole-object save:
    // the save is refused when the game changed the row since it was read (issue 21, ADR 0035). Triggers take each
    // insert or update to the next value of one counter of the whole database, so no writer (the game's saves, the
    // control API, a give) can forget to, and a world deleted and made again never repeats an old revision.
    // revision_counter.id is pinned to 1: one row. Rows that exist already start at revision 1.
    version: 4,
    name: 'world and player revisions',
    sql: `
      ALTER TABLE worlds ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE players ADD COLUMN revision INTEGER NOT NULL DEFAULT 1;
      CREATE TABLE revision_counter (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        last INTEGER NOT NULL
      );
      INSERT INTO revision_counter (id, last) VALUES (1, 1);
      CREATE TRIGGER worlds_revision_insert AFTER INSERT ON worlds BEGIN
        UPDATE revision_counter SET last = last + 1;
        UPDATE worlds SET revision = (SELECT last FROM revision_counter) WHERE id = NEW.id;
      END;
      CREATE TRIGGER worlds_revision_update AFTER UPDATE ON worlds WHEN NEW.revision = OLD.revision BEGIN
        UPDATE revision_counter SET last = last + 1;
        UPDATE worlds SET revision = (SELECT last FROM revision_counter) WHERE id = NEW.id;
      END;
      CREATE TRIGGER world_tiles_revision AFTER UPDATE ON world_tiles BEGIN
        UPDATE revision_counter SET last = last + 1;
        UPDATE worlds SET revision = (SELECT last FROM revision_counter) WHERE id = NEW.world_id;
      END;
      CREATE TRIGGER players_revision_insert AFTER INSERT ON players BEGIN
        UPDATE revision_counter SET last = last + 1;
        UPDATE players SET revision = (SELECT last FROM revision_counter) WHERE id = NEW.id;
      END;
      CREATE TRIGGER players_revision_update AFTER UPDATE ON players WHEN NEW.revision = OLD.revision BEGIN
        UPDATE revision_counter SET last = last + 1;
        UPDATE players SET revision = (SELECT last FROM revision_counter) WHERE id = NEW.id;
      END;
    `,
  },
];

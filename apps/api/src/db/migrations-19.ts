import type { Migration } from './migrations.ts';

/** Migration 19 (issue 24, buying credits in the panel): the credit packs an operator sells through Stripe. */
export const migrationsFrom19: Migration[] = [
  {
    version: 19,
    name: 'credit packs sold through Stripe Checkout',
    // credit_packs: what a "Buy credits" checkout offers (payments/credit-packs.*). price is in the currency's minor
    // units as Stripe counts them (500 = 5.00 USD, 500 JPY = 500 yen); currency is a lower-case ISO code. An inactive
    // pack stays for the record but cannot be bought. The checks hold the bounds the contract validates, so a pack
    // written around the api is still one Stripe and the webhook (metadata.credits, at most 9 digits) accept.
    sql: `
    CREATE TABLE credit_packs (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
      credits INTEGER NOT NULL CHECK (credits BETWEEN 1 AND 999999999),
      price INTEGER NOT NULL CHECK (price BETWEEN 1 AND 99999999),
      currency TEXT NOT NULL CHECK (length(currency) = 3 AND currency = lower(currency)),
      active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
      sort_order INTEGER NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN -1000000 AND 1000000),
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX credit_packs_order ON credit_packs (sort_order, created_at);
  `,
  },
];

import { Type } from 'typebox';

/** Stripe's limit; printable ASCII only, so the key reads the same in every log and language. */
export const KEY_MAX_LENGTH = 255;
export const KEY_PATTERN = '^[\\x20-\\x7e]+$';

/** The optional header of a create that may be retried safely (docs/API.md, "Retrying a create"). */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: KEY_MAX_LENGTH,
      pattern: KEY_PATTERN,
      description:
        'A key of your choosing (1 to 255 printable ASCII characters, such as a UUID) that makes a retry of this create safe: ' +
        'the same key with the same request within 24 hours returns the first response (with `Idempotent-Replayed: true`) and creates nothing. ' +
        'Keys belong to the API key that sent them.',
    }),
  ),
});

/** What a validation failure of the header says, whatever rule it broke. */
export const IDEMPOTENCY_KEY_RULE = `Idempotency-Key must be 1 to ${KEY_MAX_LENGTH} printable ASCII characters (letters, digits, punctuation and spaces)`;

import { Type } from 'typebox';
import { BIDI_CONTROLS, CONTROLS } from '../domain/text.js';

/**
 * Field rules shared by the API and the portal forms. Single-line text refuses control
 * characters and unpaired surrogates: neither survives a round trip through every store.
 */
const SINGLE_LINE = '^[^\\u0000-\\u001F\\u007F\\uD800-\\uDFFF]*$';
/** A name also refuses C1 controls and bidirectional controls, which change how it displays. */
export const NAME_PATTERN = `^[^${CONTROLS}${BIDI_CONTROLS}\\uD800-\\uDFFF]*$`;

export const LIMITS = {
  externalId: 255,
  name: 100,
  preposition: 50,
  email: 254,
  url: 2048,
  webhookUsername: 255,
  webhookPassword: 1024,
} as const;

export const Text = (minLength: number, maxLength: number, description?: string) =>
  Type.String({ minLength, maxLength, pattern: SINGLE_LINE, ...(description ? { description } : {}) });

export const ExternalId = Text(1, LIMITS.externalId, 'Caller-supplied candidate id, unique across the system.');
/** An AnalysisId in a path. Any single-line text is looked up (an unknown one is 404); a NUL would not even reach PostgreSQL. */
export const AnalysisIdParam = Text(1, 64, 'The AnalysisId.');
export const Email = Type.String({ minLength: 5, maxLength: LIMITS.email, format: 'email', pattern: SINGLE_LINE });
const Name = (minLength: number, maxLength: number, description: string) => Type.String({ minLength, maxLength, pattern: NAME_PATTERN, description });
const NO_CONTROLS = 'No control or bidirectional control characters (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C).';
export const FirstName = Name(2, LIMITS.name, NO_CONTROLS);
export const LastName = Name(2, LIMITS.name, NO_CONTROLS);
export const Preposition = Name(0, LIMITS.preposition, `Name preposition such as "van der"; "" when none. ${NO_CONTROLS}`);
export const Gender = Type.Integer({ minimum: 0, maximum: 3, default: 0, description: '0 unknown, 1 male, 2 female, 3 neutral.' });
export const AbsoluteUrl = (description: string) => Text(1, LIMITS.url, description);

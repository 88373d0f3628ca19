import { Type, type TSchema } from 'typebox';
import { ERROR_CODES } from '../domain/errors.js';

/** The spec's success envelope: StatusCode equals the HTTP status, Message is null. */
const SUCCESS: Record<number, string> = {
  200: 'OK, in the success envelope',
  201: 'Created, in the success envelope',
  202: 'Accepted, in the success envelope',
};

export const Envelope = <T extends TSchema>(data: T, statusCode: number) =>
  Type.Object(
    {
      StatusCode: Type.Integer({ const: statusCode }),
      Message: Type.Null(),
      Data: data,
    },
    { description: SUCCESS[statusCode] ?? 'Success' },
  );

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.Enum([...ERROR_CODES], { description: 'Machine-readable code; each operation lists the ones it returns, and when.' }),
      message: Type.String(),
      innererror: Type.Object({}, { additionalProperties: true }),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error, from every endpoint, has this shape.' },
);

export const ErrorRef = Type.Ref('ErrorEnvelope');

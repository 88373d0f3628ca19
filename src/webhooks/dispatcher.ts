import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Store } from '../store/database.js';

export class Dispatcher {
  constructor(_store: Store, _box: SecretBox, _config: Config, _log: FastifyBaseLogger) {}
  async start(): Promise<void> {}
  wake(): void {}
  async stop(): Promise<void> {}
}

/** An assessment's status as callers and candidates see it. Expired is derived, never stored. */
export type LifecycleStatus = 'Created' | 'Started' | 'Completed' | 'Expired' | 'Cancelled';

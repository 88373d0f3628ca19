import type { NormGroup } from './types.js';

/** The norm group a result was scored against, as the results, status and access views show it. */
export function normGroupInfo(group: NormGroup | null) {
  return group
    ? {
        Id: group.id,
        Name: group.name,
        SampleSize: group.sampleSize,
        CollectedFrom: group.collectedFrom,
        CollectedTo: group.collectedTo,
        Source: group.source,
        Illustrative: group.illustrative,
      }
    : null;
}

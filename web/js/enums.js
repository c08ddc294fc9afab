// The proto enums the dashboard shows, with the short names the HTTP API
// takes in query strings (RACE_CLASS_INTER_BLOCK <-> "inter-block") and the
// labels people read.

// `dashed` keeps the dashes in labels where they are part of the term
// ("Inter-block"), instead of reading them as spaces ("False positive").
// Proto3 JSON leaves out zero values unless the server prints them, so an
// enum is "not set" when missing or *_UNSPECIFIED.
export function isSet(full) {
  return Boolean(full) && !full.endsWith('_UNSPECIFIED');
}

function enumType(prefix, shortNames, { dashed = false } = {}) {
  const toFull = (short) => prefix + short.toUpperCase().replace(/-/g, '_');
  return {
    values: shortNames,
    toFull,
    toShort(full) {
      if (!full || !full.startsWith(prefix)) return '';
      return full.slice(prefix.length).toLowerCase().replace(/_/g, '-');
    },
    label(full) {
      const short = this.toShort(full);
      if (!short || short === 'unspecified') return '—';
      const words = dashed ? short : short.replace(/-/g, ' ');
      return words.charAt(0).toUpperCase() + words.slice(1);
    },
  };
}

export const RaceStatus = enumType('RACE_STATUS_', ['potential', 'confirmed']);
export const RaceClass = enumType('RACE_CLASS_', [
  'intra-warp', 'intra-block', 'inter-block', 'scoped', 'barrier-divergence',
], { dashed: true });
export const ReviewState = enumType('REVIEW_STATE_', [
  'unreviewed', 'confirmed', 'false-positive', 'intentional',
]);
export const DetectionState = enumType('DETECTION_STATE_', [
  'new', 'unresolved', 'resolved', 'reopened',
]);
export const SyncDefect = enumType('SYNC_DEFECT_', [
  'missing-barrier', 'missing-syncwarp', 'missing-grid-sync', 'missing-block-fence',
  'missing-device-fence', 'insufficient-atomic-scope', 'lock-scope-too-narrow',
  'different-lock-addresses', 'atomic-vs-plain', 'divergent-barrier',
]);
export const AccessKind = enumType('ACCESS_KIND_', ['read', 'write', 'atomic']);
export const MemoryScope = enumType('MEMORY_SCOPE_', ['warp', 'block', 'device', 'system']);
export const MemorySpace = enumType('MEMORY_SPACE_', ['global', 'shared', 'constant', 'local']);
export const HostFactKind = enumType('HOST_FACT_KIND_', [
  'assert', 'launch-dims', 'argument-relation', 'loop-bound', 'allocation', 'analysis',
  'command-line',
]);
export const AssumptionRole = enumType('ROLE_', ['used', 'required-for-race-freedom']);
export const ImprecisionKind = enumType('IMPRECISION_KIND_', [
  'loop-overapproximated', 'loaded-value', 'unknown-aliasing', 'no-launch-context',
  'unresolved-pointer', 'opaque-call', 'unmodeled-expression', 'unknown-host-value',
  'solver-undecided', 'row-overrun', 'tile-overrun',
]);
export const RepairKind = enumType('REPAIR_KIND_', [
  'atomic', 'barrier', 'shared', 'scope', 'fence', 'grid-sync', 'barrier-moved',
]);
export const PerfKind = enumType('PERF_KIND_', ['bank-conflict', 'uncoalesced']);

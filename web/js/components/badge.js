// Small labelled pills for enum values; the CSS colours them by value.

import { h } from '../dom.js';
import { DetectionState, isSet, RaceClass, RaceStatus, ReviewState } from '../enums.js';

function badge(type, enumType, full) {
  const short = enumType.toShort(full) || 'unspecified';
  return h('span', { class: `badge badge-${type} ${type}-${short}` }, enumType.label(full));
}

export const statusBadge = (full) => badge('status', RaceStatus, full);
export const classBadge = (full) => badge('class', RaceClass, full);
export const reviewBadge = (full) => badge('review', ReviewState,
  isSet(full) ? full : 'REVIEW_STATE_UNREVIEWED');
export const detectionBadge = (full) => badge('detection', DetectionState, full);

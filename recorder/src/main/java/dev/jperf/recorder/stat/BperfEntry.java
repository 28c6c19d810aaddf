package dev.jperf.recorder.stat;

/** struct perf_event_attr_map_entry: the leader of one event attr, by the ids of its link and diff map. */
record BperfEntry(int linkId, int diffMapId) {
}

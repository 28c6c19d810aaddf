package dev.jperf.format.record;

/** A record of a type this reader does not know; skipped by its size. */
public record UnknownRecord(long offset, int type, int misc, int size) implements PerfRecord {
}

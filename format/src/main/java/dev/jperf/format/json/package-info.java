/** bpftool's streaming JSON writer, so jperf's BPF output is bpftool's byte for byte. */
package dev.jperf.format.json;

/**
 * jperf's BPF object loader, written from libbpf 1.1's rules in Java: usable on its own as a
 * library (Java 17, JNA for the system calls).
 *
 * <p>The API: {@link dev.jperf.loader.BpfObject} (open an ELF object, configure it, load it,
 * close it), its {@link dev.jperf.loader.BpfProgram}s and {@link dev.jperf.loader.BpfMap}s
 * (element lookups and updates, global data mapped after load), {@link dev.jperf.loader.BpfLink}
 * (attach a loaded program: by its section, or to an interface, a perf event, a uprobe),
 * {@link dev.jperf.loader.LoadOptions}, {@link dev.jperf.loader.BpfObjectException} (one line
 * per failure, with its errno). {@link dev.jperf.loader.BpfSkeleton} is what the Java skeletons
 * that {@code jperf bpf gen skeleton OBJ --java} writes run on: the object embedded in a
 * class with typed accessors for its programs, maps and {@code .rodata}/{@code .data}/{@code .bss}
 * variables.
 */
package dev.jperf.loader;

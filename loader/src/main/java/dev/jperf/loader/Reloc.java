package dev.jperf.loader;

/**
 * One relocation of a program (libbpf's struct reloc_desc): at instruction {@code insnIdx} of the
 * program, against map {@code mapIdx} or symbol offset {@code symOff} (the extern's index for
 * extern relocations), or a CO-RE record.
 */
record Reloc(Type type, int insnIdx, int mapIdx, int symOff, CoreRelo core) {
    /** enum reloc_type, in libbpf's order (relocations at one instruction sort by it). */
    enum Type { LD64, CALL, DATA, EXTERN_VAR, EXTERN_FUNC, SUBPROG_ADDR, CORE }

    Reloc shifted(int by) {
        return new Reloc(type, insnIdx + by, mapIdx, symOff, core);
    }
}

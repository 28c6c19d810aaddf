package dev.jperf.loader;

/**
 * struct bpf_core_relo_res: what a relocated instruction holds in the object ({@code origVal},
 * checked when {@code validate}) and what it gets for the kernel ({@code newVal}); for a field
 * load or store also the memory sizes and the field types, and whether a size change cannot be
 * made. A poisoned result means no candidate matched and the relocation needs one: the
 * instruction is replaced by a call that the verifier reports.
 */
record CoreResult(long origVal, long newVal, boolean poison, boolean validate, boolean failMemszAdjust,
        long origSz, long newSz, int origTypeId, int newTypeId) {

    static CoreResult poisoned() {
        return new CoreResult(0, 0, true, true, false, 0, 0, 0, 0);
    }

    /** A relocation whose value is the same in object and kernel (a local type id). */
    static CoreResult unchanged(long val) {
        return new CoreResult(val, val, false, false, false, 0, 0, 0, 0);
    }

    /** Same decision as {@code other}: what makes two matching candidates agree. */
    boolean sameDecision(CoreResult other) {
        return poison == other.poison && newVal == other.newVal;
    }
}

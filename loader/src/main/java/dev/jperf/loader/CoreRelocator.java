package dev.jperf.loader;

import dev.jperf.format.btf.Btf;
import dev.jperf.format.btf.BtfException;
import dev.jperf.nativeshim.Errno;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CO-RE relocation of one object against the kernel's BTF, in libbpf 1.1's steps: the local access
 * spec is parsed ({@link CoreSpec}), matched against every candidate of the same essential name
 * ({@link KernelBtf#coreCandidates}, {@link CoreMatch}), the value computed on both sides
 * ({@link CoreCalc}) — all matching candidates must agree — and the instruction patched or
 * poisoned ({@link CorePatch}). Candidates are cached per local type, as libbpf's cand cache.
 */
final class CoreRelocator {
    private final Btf local;
    private final KernelBtf target;
    private final Map<Integer, List<KernelBtf.Candidate>> candCache = new HashMap<>();

    CoreRelocator(Btf local, KernelBtf target) {
        this.local = local;
        this.target = target;
    }

    /** A failure that fails the program's load, with libbpf's message and errno. */
    static final class CoreException extends Exception {
        final int errno;

        CoreException(String msg, int errno) {
            super(msg);
            this.errno = errno;
        }
    }

    /** Computes and applies relocation {@code r} (#{@code idx}) at instruction {@code insnIdx} of {@code insns}. */
    void relocate(String progName, CoreRelo r, int idx, byte[] insns, int insnIdx) throws CoreException {
        try {
            CoreResult res = calcRelo(progName, r, idx);
            try {
                CorePatch.apply(insns, insnIdx, res);
            } catch (CoreError e) {
                throw fail(progName, idx, e.getMessage(), e.errno);
            }
        } catch (BtfException | ClassCastException | IndexOutOfBoundsException e) {
            // the object's BTF does not describe what the relocation says it does
            throw fail(progName, idx, "malformed relocation: " + e.getMessage(), Errno.EINVAL);
        }
    }

    private static CoreException fail(String progName, int idx, String what, int errno) {
        return new CoreException("prog '" + progName + "': relo #" + idx + ": " + what, errno);
    }

    /** bpf_core_calc_relo_insn */
    private CoreResult calcRelo(String progName, CoreRelo relo, int idx) throws CoreException {
        if (!BtfTypes.valid(local, relo.typeId()) || relo.typeId() == 0) {
            throw fail(progName, idx, "bad type id " + relo.typeId(), Errno.EINVAL);
        }
        String localName = local.name(relo.typeId());
        CoreSpec localSpec;
        try {
            localSpec = CoreSpec.parse(local, relo, accessString(relo));
        } catch (CoreError e) {
            throw fail(progName, idx, "parsing [" + relo.typeId() + "] " + local.kind(relo.typeId()) + " "
                    + (localName.isEmpty() ? "<anon>" : localName) + " + " + accessStr(relo) + " failed: " + e.code(),
                    Errno.EINVAL);
        }
        if (relo.kind() == CoreRelo.BPF_CORE_TYPE_ID_LOCAL) {
            return CoreResult.unchanged(localSpec.rootTypeId);
        }
        if (localName.isEmpty()) {
            throw fail(progName, idx, "relocation kind " + relo.kind() + " doesn't support anonymous types",
                    Errno.EOPNOTSUPP);
        }
        CoreResult targRes = null;
        CoreSpec targSpec = null;
        List<KernelBtf.Candidate> kept = new ArrayList<>();
        for (KernelBtf.Candidate cand : candidates(relo.typeId())) {
            CoreSpec candSpec = new CoreSpec(cand.btf(), cand.id(), localSpec.kind);
            try {
                if (!CoreMatch.spec(localSpec, candSpec)) {
                    continue;
                }
            } catch (CoreError e) {
                throw fail(progName, idx, "error matching candidate [" + cand.id() + "]: " + e.code(), e.errno);
            }
            CoreResult candRes = calc(progName, relo, idx, localSpec, candSpec);
            if (targRes == null) {
                targRes = candRes;
                targSpec = candSpec;
            } else if (candSpec.bitOffset != targSpec.bitOffset) {
                throw fail(progName, idx, "field offset ambiguity: " + candSpec.bitOffset + " != " + targSpec.bitOffset,
                        Errno.EINVAL);
            } else if (!candRes.sameDecision(targRes)) {
                throw fail(progName, idx, "relocation decision ambiguity: " + candRes.newVal() + " != " + targRes.newVal(),
                        Errno.EINVAL);
            }
            kept.add(cand);
        }
        if (!kept.isEmpty()) {
            // later relocations of this type look only at the candidates that matched
            candCache.put(relo.typeId(), kept);
        }
        return targRes != null ? targRes : calc(progName, relo, idx, localSpec, null);
    }

    private static CoreResult calc(String progName, CoreRelo relo, int idx, CoreSpec localSpec, CoreSpec targSpec)
            throws CoreException {
        try {
            return CoreCalc.calc(relo, localSpec, targSpec);
        } catch (CoreError e) {
            if (e.errno == Errno.EOPNOTSUPP) {
                throw fail(progName, idx, "unrecognized CO-RE relocation kind " + relo.kind() + " at insn #"
                        + relo.insnOff() / 8, Errno.EOPNOTSUPP);
            }
            throw fail(progName, idx, "relocation can't be satisfied: " + e.code(), e.errno);
        }
    }

    private List<KernelBtf.Candidate> candidates(int localId) {
        List<KernelBtf.Candidate> c = candCache.get(localId);
        if (c == null) {
            String name = local.name(localId);
            c = target.coreCandidates(name.substring(0, BtfTypes.essentialNameLen(name)), local.kind(localId));
            candCache.put(localId, c);
        }
        return c;
    }

    /** The access string, unreadable as a parse failure. */
    private String accessString(CoreRelo r) throws CoreError {
        try {
            return local.string(r.accessStrOff());
        } catch (RuntimeException e) {
            throw new CoreError(Errno.EINVAL);
        }
    }

    private String accessStr(CoreRelo r) {
        try {
            return local.string(r.accessStrOff());
        } catch (RuntimeException e) {
            return "<?>";
        }
    }
}

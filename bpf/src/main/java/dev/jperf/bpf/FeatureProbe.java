package dev.jperf.bpf;

import com.sun.jna.Memory;
import dev.jperf.format.io.ProcFs;
import dev.jperf.format.bpf.BpfTypeNames;
import dev.jperf.format.json.JsonWriter;
import dev.jperf.nativeshim.Bpf;
import dev.jperf.nativeshim.BpfAttrLayout;
import dev.jperf.nativeshim.BpfProgLoadAttr;
import dev.jperf.nativeshim.Caps;
import dev.jperf.nativeshim.Errno;
import dev.jperf.nativeshim.Fd;
import dev.jperf.nativeshim.Mman;
import dev.jperf.nativeshim.Mount;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * {@code bpftool feature probe [kernel] [full] [macros [prefix PREFIX]] [unprivileged]} (feature.c of bpftool
 * 7.1, Linux 6.1, over libbpf 1.1's libbpf_probes.c): the system's BPF configuration (procfs
 * knobs, the kernel config from /boot/config-RELEASE or /proc/config.gz), then every program type,
 * map type, helper per program type and misc feature probed by a real load as bpftool probes it,
 * printed as its plain text, C macros or JSON. {@code unprivileged} probes without the BPF
 * capabilities, as bpftool built with libcap does: dropped from the thread's effective set for the
 * probes (and given back after, as jperf may go on in the same thread), and a probe whose last
 * failing call said EPERM counted as unavailable, as bpftool reads errno after it.
 */
public final class FeatureProbe {
    /** enum bpf_func_id of Linux 6.1's UAPI (bpftool's helper_name[]), without the "bpf_" prefix. */
    private static final String[] HELPERS = {
        "unspec", "map_lookup_elem", "map_update_elem", "map_delete_elem", "probe_read", "ktime_get_ns",
        "trace_printk", "get_prandom_u32", "get_smp_processor_id", "skb_store_bytes", "l3_csum_replace",
        "l4_csum_replace", "tail_call", "clone_redirect", "get_current_pid_tgid", "get_current_uid_gid",
        "get_current_comm", "get_cgroup_classid", "skb_vlan_push", "skb_vlan_pop", "skb_get_tunnel_key",
        "skb_set_tunnel_key", "perf_event_read", "redirect", "get_route_realm", "perf_event_output",
        "skb_load_bytes", "get_stackid", "csum_diff", "skb_get_tunnel_opt", "skb_set_tunnel_opt", "skb_change_proto",
        "skb_change_type", "skb_under_cgroup", "get_hash_recalc", "get_current_task", "probe_write_user",
        "current_task_under_cgroup", "skb_change_tail", "skb_pull_data", "csum_update", "set_hash_invalid",
        "get_numa_node_id", "skb_change_head", "xdp_adjust_head", "probe_read_str", "get_socket_cookie",
        "get_socket_uid", "set_hash", "setsockopt", "skb_adjust_room", "redirect_map", "sk_redirect_map",
        "sock_map_update", "xdp_adjust_meta", "perf_event_read_value", "perf_prog_read_value", "getsockopt",
        "override_return", "sock_ops_cb_flags_set", "msg_redirect_map", "msg_apply_bytes", "msg_cork_bytes",
        "msg_pull_data", "bind", "xdp_adjust_tail", "skb_get_xfrm_state", "get_stack", "skb_load_bytes_relative",
        "fib_lookup", "sock_hash_update", "msg_redirect_hash", "sk_redirect_hash", "lwt_push_encap",
        "lwt_seg6_store_bytes", "lwt_seg6_adjust_srh", "lwt_seg6_action", "rc_repeat", "rc_keydown", "skb_cgroup_id",
        "get_current_cgroup_id", "get_local_storage", "sk_select_reuseport", "skb_ancestor_cgroup_id",
        "sk_lookup_tcp", "sk_lookup_udp", "sk_release", "map_push_elem", "map_pop_elem", "map_peek_elem",
        "msg_push_data", "msg_pop_data", "rc_pointer_rel", "spin_lock", "spin_unlock", "sk_fullsock", "tcp_sock",
        "skb_ecn_set_ce", "get_listener_sock", "skc_lookup_tcp", "tcp_check_syncookie", "sysctl_get_name",
        "sysctl_get_current_value", "sysctl_get_new_value", "sysctl_set_new_value", "strtol", "strtoul",
        "sk_storage_get", "sk_storage_delete", "send_signal", "tcp_gen_syncookie", "skb_output", "probe_read_user",
        "probe_read_kernel", "probe_read_user_str", "probe_read_kernel_str", "tcp_send_ack", "send_signal_thread",
        "jiffies64", "read_branch_records", "get_ns_current_pid_tgid", "xdp_output", "get_netns_cookie",
        "get_current_ancestor_cgroup_id", "sk_assign", "ktime_get_boot_ns", "seq_printf", "seq_write",
        "sk_cgroup_id", "sk_ancestor_cgroup_id", "ringbuf_output", "ringbuf_reserve", "ringbuf_submit",
        "ringbuf_discard", "ringbuf_query", "csum_level", "skc_to_tcp6_sock", "skc_to_tcp_sock",
        "skc_to_tcp_timewait_sock", "skc_to_tcp_request_sock", "skc_to_udp6_sock", "get_task_stack", "load_hdr_opt",
        "store_hdr_opt", "reserve_hdr_opt", "inode_storage_get", "inode_storage_delete", "d_path", "copy_from_user",
        "snprintf_btf", "seq_printf_btf", "skb_cgroup_classid", "redirect_neigh", "per_cpu_ptr", "this_cpu_ptr",
        "redirect_peer", "task_storage_get", "task_storage_delete", "get_current_task_btf", "bprm_opts_set",
        "ktime_get_coarse_ns", "ima_inode_hash", "sock_from_file", "check_mtu", "for_each_map_elem", "snprintf",
        "sys_bpf", "btf_find_by_name_kind", "sys_close", "timer_init", "timer_set_callback", "timer_start",
        "timer_cancel", "get_func_ip", "get_attach_cookie", "task_pt_regs", "get_branch_snapshot", "trace_vprintk",
        "skc_to_unix_sock", "kallsyms_lookup_name", "find_vma", "loop", "strncmp", "get_func_arg", "get_func_ret",
        "get_func_arg_cnt", "get_retval", "set_retval", "xdp_get_buff_len", "xdp_load_bytes", "xdp_store_bytes",
        "copy_from_user_task", "skb_set_tstamp", "ima_file_hash", "kptr_xchg", "map_lookup_percpu_elem",
        "skc_to_mptcp_sock", "dynptr_from_mem", "ringbuf_reserve_dynptr", "ringbuf_submit_dynptr",
        "ringbuf_discard_dynptr", "dynptr_read", "dynptr_write", "dynptr_data", "tcp_raw_gen_syncookie_ipv4",
        "tcp_raw_gen_syncookie_ipv6", "tcp_raw_check_syncookie_ipv4", "tcp_raw_check_syncookie_ipv6",
        "ktime_get_tai_ns", "user_ringbuf_drain"    };

    private static final int PROC_SUPER_MAGIC = 0x9fa0;
    private static final int BPF_MAXINSNS = 4096;
    private static final int ENOTSUPP = 524;
    private static final int CAP_NET_ADMIN = 12, CAP_SYS_ADMIN = 21, CAP_PERFMON = 38, CAP_BPF = 39;
    private static final int LOG_SIZE = 4096;

    /** The kernel options bpftool reports, and whether {@code macros} prints each. */
    private static final String[] CONFIG = {"CONFIG_BPF", "CONFIG_BPF_SYSCALL", "CONFIG_HAVE_EBPF_JIT", "CONFIG_BPF_JIT",
        "CONFIG_BPF_JIT_ALWAYS_ON", "CONFIG_DEBUG_INFO_BTF", "CONFIG_DEBUG_INFO_BTF_MODULES", "CONFIG_CGROUPS",
        "CONFIG_CGROUP_BPF", "CONFIG_CGROUP_NET_CLASSID", "CONFIG_SOCK_CGROUP_DATA", "CONFIG_BPF_EVENTS",
        "CONFIG_KPROBE_EVENTS", "CONFIG_UPROBE_EVENTS", "CONFIG_TRACING", "CONFIG_FTRACE_SYSCALLS",
        "CONFIG_FUNCTION_ERROR_INJECTION", "CONFIG_BPF_KPROBE_OVERRIDE", "CONFIG_NET", "CONFIG_XDP_SOCKETS",
        "CONFIG_LWTUNNEL_BPF", "CONFIG_NET_ACT_BPF", "CONFIG_NET_CLS_BPF", "CONFIG_NET_CLS_ACT",
        "CONFIG_NET_SCH_INGRESS", "CONFIG_XFRM", "CONFIG_IP_ROUTE_CLASSID", "CONFIG_IPV6_SEG6_BPF",
        "CONFIG_BPF_LIRC_MODE2", "CONFIG_BPF_STREAM_PARSER", "CONFIG_NETFILTER_XT_MATCH_BPF", "CONFIG_BPFILTER",
        "CONFIG_BPFILTER_UMH", "CONFIG_TEST_BPF", "CONFIG_HZ"};
    private static final String MACRO_CONFIG = "CONFIG_HZ";

    private final Bpf bpf = new Bpf();
    private final Output o;
    private final java.io.PrintStream err;
    private final StringBuilder out;
    private final JsonWriter jw;
    private boolean full;
    private boolean unprivileged;
    /** The errno of the last bpf(2) call that failed: what bpftool finds in errno after a probe. */
    private int lastErrno;
    /** The macros' prefix, null for plain text (and always with JSON). */
    private String prefix;
    private final Memory log = new Memory(LOG_SIZE);

    /** {@code err} takes bpftool's p_info lines (none with {@code -j}). */
    public FeatureProbe(Output output, java.io.PrintStream err) {
        this.o = output;
        this.err = err;
        this.out = output.out();
        this.jw = output.jw();
    }

    /** Whether the kernel loads a tracing (fentry/fexit) program, libbpf's probe of the type: what a program profile needs. */
    public boolean tracingPrograms() {
        return probeProgLoad(26, insns(insn(0xb7, 0, 0, 0), EXIT), false) > 0;
    }

    /** do_probe: the arguments, the privilege check, then every section. */
    public void probe(List<String> args) {
        boolean kernel = false;
        for (int i = 0; i < args.size(); i++) {
            String w = args.get(i);
            if ("kernel".startsWith(w)) {
                if (kernel) {
                    throw new BpftoolException("component to probe already specified");
                }
                kernel = true;
            } else if ("dev".startsWith(w)) {
                throw new BpftoolException("'dev' is not supported by jperf: it offloads nothing");
            } else if ("full".startsWith(w)) {
                full = true;
            } else if ("macros".startsWith(w) && prefix == null) {
                prefix = "";
            } else if ("prefix".startsWith(w)) {
                if (prefix == null) {
                    throw new BpftoolException("'prefix' argument can only be use after 'macros'");
                }
                if (!prefix.isEmpty()) {
                    throw new BpftoolException("'prefix' already defined");
                }
                if (i + 1 >= args.size()) {
                    throw new BpftoolException("'" + w + "' needs at least 1 arguments, 0 found");
                }
                prefix = args.get(++i);
            } else if ("unprivileged".startsWith(w)) {
                unprivileged = true;
            } else {
                throw new BpftoolException("expected no more arguments, 'kernel', 'dev', 'macros' or 'prefix', got: '" + w
                        + "'?");
            }
        }
        long[] restore = checkPermissions();
        try {
            if (o.json()) {
                prefix = null;
                jw.startObject();
            }
            boolean[] supported = new boolean[128];
            systemConfig();
            if (syscallConfig()) {
                programTypes(supported);
                mapTypes();
                helpers(supported);
                misc();
            }
            if (o.json()) {
                jw.endObject();
            }
        } finally {
            if (restore != null) {
                Caps.set(restore);
            }
        }
    }

    /**
     * handle_perms (libcap): every BPF capability effective, or bpftool's refusal; with
     * {@code unprivileged} those effective dropped. Returns the sets to restore, null when unchanged.
     */
    private long[] checkPermissions() {
        long eff = 0;
        int lastCap = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    eff = Long.parseUnsignedLong(line.substring(7).strip(), 16);
                }
            }
            lastCap = ProcFs.sysctlInt(Path.of("/proc/sys/kernel/cap_last_cap"));
        } catch (IOException | NumberFormatException e) {
            throw new BpftoolException("failed to get capabilities for process: " + e.getMessage());
        }
        boolean sysAdminOnly = lastCap < CAP_BPF;
        int[] caps = {CAP_SYS_ADMIN, CAP_BPF, CAP_NET_ADMIN, CAP_PERFMON};
        String[] names = {"CAP_SYS_ADMIN", "CAP_BPF", "CAP_NET_ADMIN", "CAP_PERFMON"};
        int set = 0;
        long drop = 0;
        StringBuilder missing = new StringBuilder();
        for (int i = 0; i < caps.length; i++) {
            if ((eff >>> caps[i] & 1) != 0) {
                set++;
                drop |= 1L << caps[i];
            } else if (!sysAdminOnly) {
                missing.append(names[i]).append(", ");
            }
            if (sysAdminOnly) {
                break;
            }
        }
        if (unprivileged && set == 0 || !unprivileged && (set == caps.length || sysAdminOnly && set > 0)) {
            return null;
        }
        if (unprivileged) {
            long[] sets;
            try {
                sets = Caps.get();
            } catch (dev.jperf.nativeshim.NativeException e) {
                throw new BpftoolException("failed to get capabilities for process: " + Errno.text(e.errno()));
            }
            long[] dropped = {sets[0] & ~drop, sets[1], sets[2]};
            int e = Caps.set(dropped);
            if (e != 0) {
                throw new BpftoolException("failed to drop capabilities: " + Errno.text(e));
            }
            return sets;
        }
        throw new BpftoolException(sysAdminOnly
                ? "missing CAP_SYS_ADMIN, required for full feature probing; run as root or use 'unprivileged'"
                : "missing " + missing + "required for full feature probing; run as root or use 'unprivileged'");
    }

    // ---- printing ----

    private void boolFeature(String feat, String plain, String define, boolean res) {
        if (o.json()) {
            jw.boolField(feat, res);
        } else if (prefix != null) {
            out.append("#define ").append(prefix).append(res ? "" : "NO_").append("HAVE_").append(define).append('\n');
        } else {
            out.append(plain).append(" is ").append(res ? "" : "NOT ").append("available\n");
        }
    }

    private void startSection(String json, String plain, String comment) {
        if (o.json()) {
            jw.name(json);
            jw.startObject();
        } else {
            out.append(prefix != null ? comment : plain).append('\n');
        }
    }

    private void endSection() {
        if (o.json()) {
            jw.endObject();
        } else {
            out.append('\n');
        }
    }

    // ---- system configuration ----

    private void systemConfig() {
        startSection("system_config", "Scanning system configuration...", "/*** Misc kernel config items ***/");
        if (prefix == null) {
            if (Mount.fsType("/proc") == PROC_SUPER_MAGIC) {
                procfs("unprivileged_bpf_disabled", "/proc/sys/kernel/unprivileged_bpf_disabled",
                    "bpf() syscall for unprivileged users is enabled",
                    "bpf() syscall restricted to privileged users (without recovery)",
                    "bpf() syscall restricted to privileged users (admin can change)",
                    "Unable to retrieve required privileges for bpf() syscall",
                    "bpf() syscall restriction has unknown value %d");
                procfs("bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable", "JIT compiler is disabled",
                    "JIT compiler is enabled", "JIT compiler is enabled with debugging traces in kernel logs",
                    "Unable to retrieve JIT-compiler status", "JIT-compiler status has unknown value %d");
                procfs("bpf_jit_harden", "/proc/sys/net/core/bpf_jit_harden", "JIT compiler hardening is disabled",
                    "JIT compiler hardening is enabled for unprivileged users",
                    "JIT compiler hardening is enabled for all users", "Unable to retrieve JIT hardening status",
                    "JIT hardening status has unknown value %d");
                procfs("bpf_jit_kallsyms", "/proc/sys/net/core/bpf_jit_kallsyms",
                    "JIT compiler kallsyms exports are disabled", "JIT compiler kallsyms exports are enabled for root",
                    null, "Unable to retrieve JIT kallsyms export status",
                    "JIT kallsyms exports status has unknown value %d");
                int limit = readProcfs("/proc/sys/net/core/bpf_jit_limit");
                if (o.json()) {
                    jw.intField("bpf_jit_limit", limit);
                } else if (limit == -1) {
                    out.append("Unable to retrieve global memory limit for JIT compiler for unprivileged users\n");
                } else {
                    out.append("Global memory limit for JIT compiler for unprivileged users is ").append(limit)
                            .append(" bytes\n");
                }
            } else {
                info("/* procfs not mounted, skipping related probes */");
            }
        }
        kernelConfig();
        endSection();
    }

    /** One procfs knob: its value, or the line for 0, 1, 2 ({@code null}: none), -1, another value. */
    private void procfs(String json, String path, String v0, String v1, String v2, String none, String other) {
        int res = readProcfs(path);
        if (o.json()) {
            jw.intField(json, res);
            return;
        }
        String line = res == 0 ? v0 : res == 1 ? v1 : res == 2 && v2 != null ? v2 : res == -1 ? none
                : String.format(other, res);
        out.append(line).append('\n');
    }

    /** read_procfs: the first line as a decimal int ending the line, else -1. */
    private static int readProcfs(String path) {
        try (BufferedInputStream in = new BufferedInputStream(Files.newInputStream(Path.of(path)))) {
            StringBuilder b = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                b.append((char) c);
                if (c == '\n') {
                    break;
                }
            }
            String line = b.toString();
            int i = 0;
            while (i < line.length() && Character.isWhitespace(line.charAt(i)) && line.charAt(i) != '\n') {
                i++;
            }
            int start = i;
            if (i < line.length() && (line.charAt(i) == '-' || line.charAt(i) == '+')) {
                i++;
            }
            while (i < line.length() && line.charAt(i) >= '0' && line.charAt(i) <= '9') {
                i++;
            }
            if (line.isEmpty() || i >= line.length() || line.charAt(i) != '\n') {
                return -1;
            }
            long v = i == start ? 0 : Long.parseLong(line.substring(start, i));
            return v > Integer.MAX_VALUE || v < Integer.MIN_VALUE ? -1 : (int) v;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** probe_kernel_image_config: /boot/config-RELEASE (plain or gzip), else /proc/config.gz. */
    private void kernelConfig() {
        String[] values = new String[CONFIG.length];
        try (BufferedReader r = openConfig()) {
            if (r != null) {
                String l1 = r.readLine();
                String l2 = l1 == null ? null : r.readLine();
                if (l2 == null) {
                    info("skipping kernel config, can't read from file: Success");
                } else if (!l2.equals("# Automatically generated file; DO NOT EDIT.")) {
                    info("skipping kernel config, can't find correct file");
                } else {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        int eq = line.indexOf('=');
                        if (!line.startsWith("CONFIG_") || eq < 0 || eq == line.length() - 1) {
                            continue;
                        }
                        String name = line.substring(0, eq);
                        for (int i = 0; i < CONFIG.length; i++) {
                            if ((prefix != null && !CONFIG[i].equals(MACRO_CONFIG)) || values[i] != null
                                    || !name.equals(CONFIG[i])) {
                                continue;
                            }
                            values[i] = line.substring(eq + 1);
                        }
                    }
                }
            }
        } catch (IOException e) {
            info("skipping kernel config, can't read from file: " + e.getMessage());
        }
        for (int i = 0; i < CONFIG.length; i++) {
            if (prefix != null && !CONFIG[i].equals(MACRO_CONFIG)) {
                continue;
            }
            String name = CONFIG[i];
            String value = values[i];
            if (o.json()) {
                // bpftool's strtol test looks for the newline it already cut: every value is a string
                if (value == null) {
                    jw.name(name);
                    jw.nul();
                } else {
                    jw.stringField(name, value);
                }
            } else if (prefix != null) {
                if (value != null) {
                    out.append("#define ").append(prefix).append(name).append(' ').append(value).append('\n');
                } else {
                    out.append("/* ").append(prefix).append(name).append(" is not set */\n");
                }
            } else if (value != null) {
                out.append(name).append(" is set to ").append(value).append('\n');
            } else {
                out.append(name).append(" is not set\n");
            }
        }
    }

    /** gzopen of the config: a gzip file or a plain one; null (and bpftool's line) when there is none. */
    private BufferedReader openConfig() throws IOException {
        Path boot = Path.of("/boot/config-" + System.getProperty("os.version"));
        Path path = Files.isReadable(boot) ? boot : Path.of("/proc/config.gz");
        InputStream in;
        try {
            in = new BufferedInputStream(Files.newInputStream(path));
        } catch (IOException e) {
            info("skipping kernel config, can't open file: " + Errno.text(Errno.ENOENT));
            return null;
        }
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            in = new GZIPInputStream(in, 1 << 16);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
    }

    private void info(String line) {
        if (!o.json()) {
            err.println(line);
        }
    }

    // ---- bpf() probes ----

    private boolean syscallConfig() {
        startSection("syscall_config", "Scanning system call availability...", "/*** System call availability ***/");
        // bpf_prog_load(UNSPEC, NULL, ...): anything but ENOSYS says the call exists
        int fd = load(new BpfProgLoadAttr(0, 0, new byte[0], "", 0, 0, "", 0, null, 0, null, 0, 0, 0), null, 0);
        if (fd >= 0) {
            Fd.close(fd);
        }
        boolean res = fd != -Errno.ENOSYS;
        boolFeature("have_bpf_syscall", "bpf() syscall", "BPF_SYSCALL", res);
        endSection();
        return res;
    }

    private static byte[] insns(long... words) {
        ByteBuffer b = ByteBuffer.allocate(words.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    /** One instruction: opcode, registers, offset, immediate. */
    private static long insn(int code, int regs, int off, int imm) {
        return (code & 0xffL) | (regs & 0xffL) << 8 | (off & 0xffffL) << 16 | (imm & 0xffffffffL) << 32;
    }

    private static final long EXIT = insn(0x95, 0, 0, 0);

    /** libbpf's get_kernel_version: KERNEL_VERSION of uname's release, the patch level capped at 255. */
    private static int kernelVersion() {
        String[] v = System.getProperty("os.version").split("[^0-9]+");
        try {
            int major = Integer.parseInt(v[0]);
            int minor = Integer.parseInt(v[1]);
            int patch = Math.min(255, Integer.parseInt(v[2]));
            return major << 16 | minor << 8 | patch;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /**
     * libbpf 1.1's probe_prog_load: 1 if the program type loads {@code code} (or fails as a
     * supported type fails), 0 if not, -EOPNOTSUPP for a type libbpf does not probe. With
     * {@code withLog} the verifier's log is left in {@link #log}.
     */
    private int probeProgLoad(int type, byte[] code, boolean withLog) {
        int expectedAttach = 0, kern = 0, flags = 0, attachBtfId = 0, expErr = 0;
        String expMsg = null;
        boolean logged = withLog;
        switch (type) {
            case 18 -> expectedAttach = 10; // cgroup_sock_addr: BPF_CGROUP_INET4_CONNECT
            case 25 -> expectedAttach = 21; // cgroup_sockopt: BPF_CGROUP_GETSOCKOPT
            case 30 -> expectedAttach = 36; // sk_lookup: BPF_SK_LOOKUP
            case 2 -> kern = kernelVersion(); // kprobe
            case 20 -> expectedAttach = 16; // lirc_mode2: BPF_LIRC_MODE2
            case 26, 29 -> { // tracing (BPF_TRACE_FENTRY), lsm (BPF_MODIFY_RETURN)
                logged = true;
                expectedAttach = type == 26 ? 24 : 26;
                attachBtfId = 1;
                expErr = -Errno.EINVAL;
                expMsg = "attach_btf_id 1 is not a function";
            }
            case 28 -> { // ext
                logged = true;
                attachBtfId = 1;
                expErr = -Errno.EINVAL;
                expMsg = "Cannot replace kernel functions";
            }
            case 31 -> flags = 1 << 4; // syscall: BPF_F_SLEEPABLE
            case 27 -> expErr = -ENOTSUPP; // struct_ops
            case 0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 21, 22, 23, 24 -> {
            }
            default -> {
                return -Errno.EOPNOTSUPP;
            }
        }
        if (logged) {
            log.setByte(0, (byte) 0);
        }
        int fd = load(new BpfProgLoadAttr(type, expectedAttach, code, "GPL", kern, flags, "", 0, null, 0, null, 0,
                attachBtfId, 0), logged ? log : null, logged ? 1 : 0);
        if (fd >= 0) {
            Fd.close(fd);
        }
        if (expErr != 0) {
            if (fd >= 0 || fd != expErr) {
                return 0;
            }
            return expMsg != null && !log.getString(0).contains(expMsg) ? 0 : 1;
        }
        return fd >= 0 ? 1 : 0;
    }

    private void programTypes(boolean[] supported) {
        startSection("program_types", "Scanning eBPF program types...", "/*** eBPF program types ***/");
        byte[] code = insns(insn(0xb7, 0, 0, 0), EXIT);
        for (int t = 1; BpfTypeNames.progType(t) != null; t++) {
            String name = BpfTypeNames.progType(t);
            boolean res = probeProgLoad(t, code, false) > 0;
            // bpftool: a probe may pass on a refused load; for a user, EPERM in errno says no
            if (unprivileged && lastErrno == Errno.EPERM) {
                res = false;
            }
            supported[t] |= res;
            boolFeature("have_" + name + "_prog_type", "eBPF program_type " + name,
                    name.toUpperCase(Locale.ROOT) + "_PROG_TYPE", res);
        }
        endSection();
    }

    private void mapTypes() {
        startSection("map_types", "Scanning eBPF map types...", "/*** eBPF map types ***/");
        for (int t = 1; BpfTypeNames.mapType(t) != null; t++) {
            String name = BpfTypeNames.mapType(t);
            boolean res = probeMapCreate(t) > 0;
            boolFeature("have_" + name + "_map_type", "eBPF map_type " + name,
                    name.toUpperCase(Locale.ROOT) + "_MAP_TYPE", res);
        }
        endSection();
    }

    /** libbpf 1.1's probe_map_create. */
    private int probeMapCreate(int type) {
        int key = 4, value = 4, entries = 1, flags = 0, btfKey = 0, btfValue = 0, vmlinuxValue = 0, expErr = 0;
        int btf = -1;
        switch (type) {
            case 7 -> value = 8; // stack_trace
            case 11 -> { // lpm_trie
                key = 8;
                value = 8;
                flags = 1; // BPF_F_NO_PREALLOC
            }
            case 19, 21 -> { // cgroup_storage, percpu_cgroup_storage
                key = 16; // struct bpf_cgroup_storage_key
                value = 8;
                entries = 0;
            }
            case 22, 23 -> key = 0; // queue, stack
            case 24, 28, 29, 32 -> { // sk, inode, task, cgrp storage
                btfKey = 1;
                btfValue = 3;
                value = 8;
                entries = 0;
                flags = 1;
                btf = failed(bpf.btfLoad(localStorageBtf(), null));
                if (btf < 0) {
                    return btf;
                }
            }
            case 27, 31 -> { // ringbuf, user_ringbuf
                key = 0;
                value = 0;
                entries = Mman.pageSize(); // sysconf(_SC_PAGE_SIZE)
            }
            case 26 -> { // struct_ops: -ENOTSUPP for a BTF type id that is none
                vmlinuxValue = 1;
                expErr = -ENOTSUPP;
            }
            case 30 -> key = 0; // bloom_filter
            case 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 20, 25 -> {
            }
            default -> {
                return -Errno.EOPNOTSUPP;
            }
        }
        int inner = -1;
        int fd;
        try {
            if (type == 12 || type == 13) { // maps of maps: a hash map as the template
                inner = failed(bpf.mapCreate(1, "", 4, 4, 1, 0, 0, 0, 0, 0, 0));
                if (inner < 0) {
                    return 0;
                }
            }
            fd = failed(bpf.mapCreate(type, "", key, value, entries, flags, Math.max(inner, 0), Math.max(btf, 0), btfKey,
                    btfValue, 0, 0, vmlinuxValue));
        } finally {
            if (inner >= 0) {
                Fd.close(inner);
            }
            if (btf >= 0) {
                Fd.close(btf);
            }
        }
        if (fd >= 0) {
            Fd.close(fd);
        }
        if (expErr != 0) {
            return fd < 0 && fd == expErr ? 1 : 0;
        }
        return fd >= 0 ? 1 : 0;
    }

    /** load_local_storage_btf's types: int, struct bpf_spin_lock { int val; }, struct val { int cnt; struct bpf_spin_lock l; }. */
    private static byte[] localStorageBtf() {
        int[] types = {0, 0x01000000, 4, 0x01000020, 1, 0x04000001, 4, 15, 1, 0, 15, 0x04000002, 8, 19, 1, 0, 23, 2, 32};
        byte[] strs = "\0bpf_spin_lock\0val\0cnt\0l\0".getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(24 + types.length * 4 + strs.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24).putInt(0).putInt(types.length * 4)
                .putInt(types.length * 4).putInt(strs.length);
        for (int t : types) {
            b.putInt(t);
        }
        b.put(strs);
        return b.array();
    }

    private void helpers(boolean[] supported) {
        startSection("helpers", "Scanning eBPF helper functions...", "/*** eBPF helper functions ***/");
        if (prefix != null) {
            out.append("/*\n"
                    + " * Use ").append(prefix).append("HAVE_PROG_TYPE_HELPER(prog_type_name, helper_name)\n"
                    + " * to determine if <helper_name> is available for <prog_type_name>,\n"
                    + " * e.g.\n"
                    + " *\t#if ").append(prefix).append("HAVE_PROG_TYPE_HELPER(xdp, bpf_redirect)\n"
                    + " *\t\t// do stuff with this helper\n"
                    + " *\t#elif\n"
                    + " *\t\t// use a workaround\n"
                    + " *\t#endif\n"
                    + " */\n"
                    + "#define ").append(prefix).append("HAVE_PROG_TYPE_HELPER(prog_type, helper)\t\\\n"
                    + "\t").append(prefix).append("BPF__PROG_TYPE_ ## prog_type ## __HELPER_ ## helper\n");
        }
        for (int t = 1; BpfTypeNames.progType(t) != null; t++) {
            helpersFor(t, BpfTypeNames.progType(t), supported[t]);
            o.flushSome();
        }
        endSection();
    }

    /** probe_helpers_for_progtype. */
    private void helpersFor(int type, String name, boolean supportedType) {
        if (o.json()) {
            jw.name(name + "_available_helpers");
            jw.startArray();
        } else if (prefix == null) {
            out.append("eBPF helpers supported for program type ").append(name).append(':');
        }
        boolean any = false;
        for (int id = 1; id < HELPERS.length; id++) {
            // trace_printk, trace_vprintk, probe_write_user write to dmesg: only in full mode
            if (!full && (id == 6 || id == 177 || id == 36)) {
                continue;
            }
            boolean res = supportedType && probeHelper(type, id) > 0 && !(unprivileged && lastErrno == Errno.EPERM);
            String helper = "bpf_" + HELPERS[id];
            if (o.json()) {
                if (res) {
                    jw.string(helper);
                }
            } else if (prefix != null) {
                out.append("#define ").append(prefix).append("BPF__PROG_TYPE_").append(name).append("__HELPER_")
                        .append(helper).append(res ? " 1\n" : " 0\n");
            } else if (res) {
                out.append("\n\t- ").append(helper);
            }
            any |= res;
        }
        if (o.json()) {
            jw.endArray();
        } else if (prefix == null) {
            out.append('\n');
            if (!any) {
                out.append(supportedType ? "\tCould not determine which helpers are available\n"
                        : "\tProgram type not supported\n");
            }
        }
    }

    /** libbpf 1.1's libbpf_probe_bpf_helper. */
    private int probeHelper(int type, int id) {
        if (type == 26 || type == 28 || type == 29 || type == 27) { // tracing, ext, lsm, struct_ops
            return -Errno.EOPNOTSUPP;
        }
        log.setByte(0, (byte) 0);
        int ret = probeProgLoad(type, insns(insn(0x85, 0, 0, id), EXIT), true);
        if (ret < 0) {
            return ret;
        }
        String text = log.getString(0);
        if (ret == 0 && (text.contains("invalid func ") || text.contains("unknown func "))) {
            return 0;
        }
        return 1; // assume supported
    }

    private void misc() {
        startSection("misc", "Scanning miscellaneous eBPF features...", "/*** eBPF misc features ***/");
        long[] large = new long[BPF_MAXINSNS + 1];
        java.util.Arrays.fill(large, insn(0xb7, 0, 0, 1));
        large[BPF_MAXINSNS] = EXIT;
        miscFeature(insns(large), "have_large_insn_limit", "Large program size limit", "LARGE_INSN_LIMIT");
        miscFeature(insns(insn(0xb7, 0, 0, 10), insn(0x17, 0, 0, 1), insn(0x55, 0, -2, 0), EXIT), "have_bounded_loops",
                "Bounded loop support", "BOUNDED_LOOPS");
        miscFeature(insns(insn(0xb7, 0, 0, 0), insn(0xa5, 0, 1, 0), insn(0xb7, 0, 0, 1), EXIT), "have_v2_isa_extension",
                "ISA extension v2", "V2_ISA_EXTENSION");
        miscFeature(insns(insn(0xb7, 0, 0, 0), insn(0xa6, 0, 1, 0), insn(0xb7, 0, 0, 1), EXIT), "have_v3_isa_extension",
                "ISA extension v3", "V3_ISA_EXTENSION");
        endSection();
    }

    /** probe_misc_feature: a socket filter that loads (or fails without an errno). */
    private void miscFeature(byte[] code, String feat, String plain, String define) {
        int fd = load(new BpfProgLoadAttr(1, 0, code, "GPL", 0, 0, "", 0, null, 0, null, 0, 0, 0), null, 0);
        if (fd >= 0) {
            Fd.close(fd);
        }
        boolFeature(feat, plain, define, fd >= 0);
    }

    /** BPF_PROG_LOAD, the errno of a failure kept as errno keeps it. */
    private int load(BpfProgLoadAttr a, Memory logBuf, int level) {
        return failed(bpf.progLoad(a, logBuf, level));
    }

    /** {@code fd}, its errno (if it is one) kept as the last. */
    private int failed(int fd) {
        if (fd < 0) {
            lastErrno = -fd;
        }
        return fd;
    }
}


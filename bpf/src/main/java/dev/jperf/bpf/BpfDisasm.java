package dev.jperf.bpf;

import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_CALL;
import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_FUNC;
import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_MAP_FD;
import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_MAP_IDX_VALUE;
import static dev.jperf.format.bpf.Uapi.BPF_PSEUDO_MAP_VALUE;

/**
 * The kernel's disassembler (kernel/bpf/disasm.c, print_bpf_insn) as bpftool 7.1 carries it (the
 * 6.1 kernel's: newer instructions print as 6.1 printed them), with bpftool's callbacks for
 * {@code prog dump xlated}: helper calls named through /proc/kallsyms, bpf-to-bpf calls by their
 * JITed symbol, map references as {@code map[id:N]}. One instruction becomes one line of text.
 */
final class BpfDisasm {
    /** enum bpf_func_id of the 6.1 UAPI (__BPF_FUNC_MAPPER), as disasm.c's func_id_str names them. */
    private static final String[] FUNC_ID_STR = {
        "bpf_unspec", "bpf_map_lookup_elem", "bpf_map_update_elem", "bpf_map_delete_elem", "bpf_probe_read",
        "bpf_ktime_get_ns", "bpf_trace_printk", "bpf_get_prandom_u32", "bpf_get_smp_processor_id",
        "bpf_skb_store_bytes", "bpf_l3_csum_replace", "bpf_l4_csum_replace", "bpf_tail_call", "bpf_clone_redirect",
        "bpf_get_current_pid_tgid", "bpf_get_current_uid_gid", "bpf_get_current_comm", "bpf_get_cgroup_classid",
        "bpf_skb_vlan_push", "bpf_skb_vlan_pop", "bpf_skb_get_tunnel_key", "bpf_skb_set_tunnel_key",
        "bpf_perf_event_read", "bpf_redirect", "bpf_get_route_realm", "bpf_perf_event_output", "bpf_skb_load_bytes",
        "bpf_get_stackid", "bpf_csum_diff", "bpf_skb_get_tunnel_opt", "bpf_skb_set_tunnel_opt",
        "bpf_skb_change_proto", "bpf_skb_change_type", "bpf_skb_under_cgroup", "bpf_get_hash_recalc",
        "bpf_get_current_task", "bpf_probe_write_user", "bpf_current_task_under_cgroup", "bpf_skb_change_tail",
        "bpf_skb_pull_data", "bpf_csum_update", "bpf_set_hash_invalid", "bpf_get_numa_node_id",
        "bpf_skb_change_head", "bpf_xdp_adjust_head", "bpf_probe_read_str", "bpf_get_socket_cookie",
        "bpf_get_socket_uid", "bpf_set_hash", "bpf_setsockopt", "bpf_skb_adjust_room", "bpf_redirect_map",
        "bpf_sk_redirect_map", "bpf_sock_map_update", "bpf_xdp_adjust_meta", "bpf_perf_event_read_value",
        "bpf_perf_prog_read_value", "bpf_getsockopt", "bpf_override_return", "bpf_sock_ops_cb_flags_set",
        "bpf_msg_redirect_map", "bpf_msg_apply_bytes", "bpf_msg_cork_bytes", "bpf_msg_pull_data", "bpf_bind",
        "bpf_xdp_adjust_tail", "bpf_skb_get_xfrm_state", "bpf_get_stack", "bpf_skb_load_bytes_relative",
        "bpf_fib_lookup", "bpf_sock_hash_update", "bpf_msg_redirect_hash", "bpf_sk_redirect_hash",
        "bpf_lwt_push_encap", "bpf_lwt_seg6_store_bytes", "bpf_lwt_seg6_adjust_srh", "bpf_lwt_seg6_action",
        "bpf_rc_repeat", "bpf_rc_keydown", "bpf_skb_cgroup_id", "bpf_get_current_cgroup_id", "bpf_get_local_storage",
        "bpf_sk_select_reuseport", "bpf_skb_ancestor_cgroup_id", "bpf_sk_lookup_tcp", "bpf_sk_lookup_udp",
        "bpf_sk_release", "bpf_map_push_elem", "bpf_map_pop_elem", "bpf_map_peek_elem", "bpf_msg_push_data",
        "bpf_msg_pop_data", "bpf_rc_pointer_rel", "bpf_spin_lock", "bpf_spin_unlock", "bpf_sk_fullsock",
        "bpf_tcp_sock", "bpf_skb_ecn_set_ce", "bpf_get_listener_sock", "bpf_skc_lookup_tcp",
        "bpf_tcp_check_syncookie", "bpf_sysctl_get_name", "bpf_sysctl_get_current_value", "bpf_sysctl_get_new_value",
        "bpf_sysctl_set_new_value", "bpf_strtol", "bpf_strtoul", "bpf_sk_storage_get", "bpf_sk_storage_delete",
        "bpf_send_signal", "bpf_tcp_gen_syncookie", "bpf_skb_output", "bpf_probe_read_user", "bpf_probe_read_kernel",
        "bpf_probe_read_user_str", "bpf_probe_read_kernel_str", "bpf_tcp_send_ack", "bpf_send_signal_thread",
        "bpf_jiffies64", "bpf_read_branch_records", "bpf_get_ns_current_pid_tgid", "bpf_xdp_output",
        "bpf_get_netns_cookie", "bpf_get_current_ancestor_cgroup_id", "bpf_sk_assign", "bpf_ktime_get_boot_ns",
        "bpf_seq_printf", "bpf_seq_write", "bpf_sk_cgroup_id", "bpf_sk_ancestor_cgroup_id", "bpf_ringbuf_output",
        "bpf_ringbuf_reserve", "bpf_ringbuf_submit", "bpf_ringbuf_discard", "bpf_ringbuf_query", "bpf_csum_level",
        "bpf_skc_to_tcp6_sock", "bpf_skc_to_tcp_sock", "bpf_skc_to_tcp_timewait_sock", "bpf_skc_to_tcp_request_sock",
        "bpf_skc_to_udp6_sock", "bpf_get_task_stack", "bpf_load_hdr_opt", "bpf_store_hdr_opt", "bpf_reserve_hdr_opt",
        "bpf_inode_storage_get", "bpf_inode_storage_delete", "bpf_d_path", "bpf_copy_from_user", "bpf_snprintf_btf",
        "bpf_seq_printf_btf", "bpf_skb_cgroup_classid", "bpf_redirect_neigh", "bpf_per_cpu_ptr", "bpf_this_cpu_ptr",
        "bpf_redirect_peer", "bpf_task_storage_get", "bpf_task_storage_delete", "bpf_get_current_task_btf",
        "bpf_bprm_opts_set", "bpf_ktime_get_coarse_ns", "bpf_ima_inode_hash", "bpf_sock_from_file", "bpf_check_mtu",
        "bpf_for_each_map_elem", "bpf_snprintf", "bpf_sys_bpf", "bpf_btf_find_by_name_kind", "bpf_sys_close",
        "bpf_timer_init", "bpf_timer_set_callback", "bpf_timer_start", "bpf_timer_cancel", "bpf_get_func_ip",
        "bpf_get_attach_cookie", "bpf_task_pt_regs", "bpf_get_branch_snapshot", "bpf_trace_vprintk",
        "bpf_skc_to_unix_sock", "bpf_kallsyms_lookup_name", "bpf_find_vma", "bpf_loop", "bpf_strncmp",
        "bpf_get_func_arg", "bpf_get_func_ret", "bpf_get_func_arg_cnt", "bpf_get_retval", "bpf_set_retval",
        "bpf_xdp_get_buff_len", "bpf_xdp_load_bytes", "bpf_xdp_store_bytes", "bpf_copy_from_user_task",
        "bpf_skb_set_tstamp", "bpf_ima_file_hash", "bpf_kptr_xchg", "bpf_map_lookup_percpu_elem",
        "bpf_skc_to_mptcp_sock", "bpf_dynptr_from_mem", "bpf_ringbuf_reserve_dynptr", "bpf_ringbuf_submit_dynptr",
        "bpf_ringbuf_discard_dynptr", "bpf_dynptr_read", "bpf_dynptr_write", "bpf_dynptr_data",
        "bpf_tcp_raw_gen_syncookie_ipv4", "bpf_tcp_raw_gen_syncookie_ipv6", "bpf_tcp_raw_check_syncookie_ipv4",
        "bpf_tcp_raw_check_syncookie_ipv6", "bpf_ktime_get_tai_ns", "bpf_user_ringbuf_drain"
    };

    private static final String[] ALU = {"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=", "neg", "%=", "^=", "=",
        "s>>=", "endian", null, null};
    private static final String[] ATOMIC_ALU = {"add", null, null, null, "or", "and", null, null, null, null, "xor",
        null, null, null, null, null};
    private static final String[] LDST = {"u32", "u16", "u8", "u64"};
    private static final String[] JMP = {"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=", "call", "exit", "<", "<=",
        "s<", "s<=", null, null};

    // the opcode fields and pseudo registers of uapi bpf.h
    static final int BPF_LD = 0, BPF_LDX = 1, BPF_ST = 2, BPF_STX = 3, BPF_ALU = 4, BPF_JMP = 5, BPF_JMP32 = 6,
            BPF_ALU64 = 7;
    private static final int BPF_X = 0x08, BPF_TO_BE = 0x08;
    private static final int BPF_END = 0xd0, BPF_NEG = 0x80, BPF_CALL = 0x80, BPF_JA = 0x00, BPF_EXIT = 0x90;
    private static final int BPF_MEM = 0x60, BPF_ATOMIC = 0xc0, BPF_ABS = 0x20, BPF_IND = 0x40, BPF_IMM = 0x00,
            BPF_NOSPEC = 0xc0;
    private static final int BPF_DW = 0x18;
    private static final int BPF_ADD = 0x00, BPF_OR = 0x40, BPF_AND = 0x50, BPF_XOR = 0xa0, BPF_FETCH = 0x01,
            BPF_XCHG = 0xe0 | BPF_FETCH, BPF_CMPXCHG = 0xf0 | BPF_FETCH;
    static final int BPF_LD_IMM_DW = BPF_LD | BPF_IMM | BPF_DW;

    private final KernelSymbols syms;
    private final long[] jitedKsyms;

    BpfDisasm(KernelSymbols syms, long[] jitedKsyms) {
        this.syms = syms;
        this.jitedKsyms = jitedKsyms;
    }

    /** One instruction of {@code insns} (8 bytes each, little-endian), without the newline. */
    String print(byte[] insns, int index) {
        int at = index * 8;
        int code = insns[at] & 0xff;
        int dst = insns[at + 1] & 0x0f;
        int src = (insns[at + 1] >> 4) & 0x0f;
        int off = (short) ((insns[at + 2] & 0xff) | insns[at + 3] << 8);
        int imm = imm(insns, at);
        int cls = code & 0x07;
        int op = code & 0xf0;
        String c = hex2(code);
        if (cls == BPF_ALU || cls == BPF_ALU64) {
            char r = cls == BPF_ALU ? 'w' : 'r';
            if (op == BPF_END) {
                return cls == BPF_ALU64 ? "BUG_alu64_" + hex2(code)
                        : c + " r" + dst + " = " + ((code & BPF_X) == BPF_TO_BE ? "be" : "le") + imm + " r" + dst;
            }
            if (op == BPF_NEG) {
                return c + " " + r + dst + " = -" + r + dst;
            }
            if ((code & BPF_X) != 0) {
                return c + " " + r + dst + " " + str(ALU[op >> 4]) + " " + r + src;
            }
            return c + " " + r + dst + " " + str(ALU[op >> 4]) + " " + imm;
        }
        int mode = code & 0xe0;
        String size = LDST[(code & 0x18) >> 3];
        if (cls == BPF_STX) {
            if (mode == BPF_MEM) {
                return c + " *(" + size + " *)(r" + dst + " " + signed(off) + ") = r" + src;
            }
            if (mode == BPF_ATOMIC && (imm == BPF_ADD || imm == BPF_AND || imm == BPF_OR || imm == BPF_XOR)) {
                return c + " lock *(" + size + " *)(r" + dst + " " + signed(off) + ") " + str(ALU[(imm & 0xf0) >> 4])
                        + " r" + src;
            }
            String w = (code & 0x18) == BPF_DW ? "64" : "";
            if (mode == BPF_ATOMIC && (imm == (BPF_ADD | BPF_FETCH) || imm == (BPF_AND | BPF_FETCH)
                    || imm == (BPF_OR | BPF_FETCH) || imm == (BPF_XOR | BPF_FETCH))) {
                return c + " r" + src + " = atomic" + w + "_fetch_" + str(ATOMIC_ALU[(imm & 0xf0) >> 4]) + "((" + size
                        + " *)(r" + dst + " " + signed(off) + "), r" + src + ")";
            }
            if (mode == BPF_ATOMIC && imm == BPF_CMPXCHG) {
                return c + " r0 = atomic" + w + "_cmpxchg((" + size + " *)(r" + dst + " " + signed(off) + "), r0, r"
                        + src + ")";
            }
            if (mode == BPF_ATOMIC && imm == BPF_XCHG) {
                return c + " r" + src + " = atomic" + w + "_xchg((" + size + " *)(r" + dst + " " + signed(off)
                        + "), r" + src + ")";
            }
            return "BUG_" + hex2(code);
        }
        if (cls == BPF_ST) {
            if (mode == BPF_MEM) {
                return c + " *(" + size + " *)(r" + dst + " " + signed(off) + ") = " + imm;
            }
            return mode == BPF_NOSPEC ? c + " nospec" : "BUG_st_" + hex2(code);
        }
        if (cls == BPF_LDX) {
            if (mode != BPF_MEM) {
                return "BUG_ldx_" + hex2(code);
            }
            return c + " r" + dst + " = *(" + size + " *)(r" + src + " " + signed(off) + ")";
        }
        if (cls == BPF_LD) {
            if (mode == BPF_ABS) {
                return c + " r0 = *(" + size + " *)skb[" + imm + "]";
            }
            if (mode == BPF_IND) {
                return c + " r0 = *(" + size + " *)skb[r" + src + " + " + imm + "]";
            }
            if (mode == BPF_IMM && (code & 0x18) == BPF_DW) {
                int next = at + 8 < insns.length ? imm(insns, at + 8) : 0;
                long full = (long) next << 32 | Integer.toUnsignedLong(imm);
                return c + " r" + dst + " = " + immName(src, imm, next, full);
            }
            return "BUG_ld_" + hex2(code);
        }
        // BPF_JMP, BPF_JMP32
        char r = cls == BPF_JMP32 ? 'w' : 'r';
        if (op == BPF_CALL) {
            if (src == BPF_PSEUDO_CALL) {
                return c + " call pc" + funcName(src, off, imm);
            }
            return c + " call " + funcName(src, off, imm) + "#" + imm;
        }
        if (code == (BPF_JMP | BPF_JA)) {
            return c + " goto pc" + signed(off);
        }
        if (code == (BPF_JMP | BPF_EXIT)) {
            return c + " exit";
        }
        if ((code & BPF_X) != 0) {
            return c + " if " + r + dst + " " + str(JMP[op >> 4]) + " " + r + src + " goto pc" + signed(off);
        }
        return c + " if " + r + dst + " " + str(JMP[op >> 4]) + " 0x" + Integer.toHexString(imm) + " goto pc"
                + signed(off);
    }

    private static int imm(byte[] b, int at) {
        return (b[at + 4] & 0xff) | (b[at + 5] & 0xff) << 8 | (b[at + 6] & 0xff) << 16 | b[at + 7] << 24;
    }

    /** __func_get_name with bpftool's print_call. */
    private String funcName(int src, int off, int imm) {
        if (src == 0 && imm >= 0 && imm < FUNC_ID_STR.length) {
            return FUNC_ID_STR[imm];
        }
        long address = syms.callBase() + imm;
        if (src == BPF_PSEUDO_CALL && Integer.toUnsignedLong(imm) < jitedKsyms.length) {
            address = jitedKsyms[imm];
        }
        String sym = syms.search(address);
        if (src == BPF_PSEUDO_CALL) {
            if (jitedKsyms.length == 0) {
                return signed(off); // an interpreted program: no address
            }
            return signed(off) + "#" + (sym != null ? sym : "0x" + Long.toHexString(address));
        }
        return sym != null ? sym : "0x" + Long.toHexString(address);
    }

    /** bpftool's print_imm. */
    private static String immName(int src, int imm, int next, long full) {
        return switch (src) {
            case BPF_PSEUDO_MAP_FD -> "map[id:" + Integer.toUnsignedString(imm) + "]";
            case BPF_PSEUDO_MAP_VALUE -> "map[id:" + Integer.toUnsignedString(imm) + "][0]+"
                    + Integer.toUnsignedString(next);
            case BPF_PSEUDO_MAP_IDX_VALUE -> "map[idx:" + Integer.toUnsignedString(imm) + "]+"
                    + Integer.toUnsignedString(next);
            case BPF_PSEUDO_FUNC -> "subprog[" + signed(imm) + "]";
            default -> "0x" + Long.toHexString(full);
        };
    }

    private static String hex2(int code) {
        return String.format("(%02x)", code);
    }

    private static String signed(int v) {
        return v < 0 ? Integer.toString(v) : "+" + v;
    }

    /** printf's %s of a NULL string, as glibc prints it. */
    private static String str(String s) {
        return s == null ? "(null)" : s;
    }
}

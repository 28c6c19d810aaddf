/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few libbpf conventions jperf's sample programs use, spelled out here so that rebuilding them
 * needs clang and bpftool (for vmlinux.h) only: SEC(), BTF-defined map fields, helper ids
 * (uapi linux/bpf.h's __BPF_FUNC_MAPPER) and CO-RE reads through preserve_access_index.
 */
#ifndef JPERF_BPF_H
#define JPERF_BPF_H

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __array(name, val) typeof(val) *name[]
#define __always_inline inline __attribute__((always_inline))
#define __noinline __attribute__((noinline))
#define __weak __attribute__((weak))
#define __hidden __attribute__((visibility("hidden")))
#define __kconfig __attribute__((section(".kconfig")))

static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value, __u64 flags) = (void *)2;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)5;
static __u32 (*bpf_get_smp_processor_id)(void) = (void *)8;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)14;
static long (*bpf_get_current_comm)(void *buf, __u32 size) = (void *)16;
static long (*bpf_get_stackid)(void *ctx, void *map, __u64 flags) = (void *)27;
static __u64 (*bpf_get_current_task)(void) = (void *)35;
static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;

#define BPF_ANY 0
#define BPF_NOEXIST 1
#define BPF_F_NO_PREALLOC 1
/* bpf_get_stackid's flags */
#define BPF_F_USER_STACK (1ULL << 8)
#define BPF_F_FAST_STACK_CMP (1ULL << 9)

/* the value of a field of a kernel struct, its offset relocated against the running kernel (CO-RE) */
#define CORE_READ(dst, src) bpf_probe_read_kernel(&(dst), sizeof(dst), &(src))

/* a field's existence and byte offset as relocations (bpf_core_field_exists, bpf_core_field_offset) */
#define core_field_exists(field) __builtin_preserve_field_info(field, 2)
#define core_field_size(field) __builtin_preserve_field_info(field, 1)

#endif

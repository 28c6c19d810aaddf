// libbpf as the oracle for jperf's loader (LibbpfOracle builds this at test time against
// libbpf-dev). For each BPF object and each of its programs: open with libbpf, load that program
// alone, and print libbpf's answer as "OBJECT\tPROGRAM\tSECTION\tOK|errno text"; for loaded
// programs, write OUTDIR/OBJECT.PROGRAM.xlated: the kernel's xlated instructions as
// "code dst src off imm" (map references written "map-ref" with their ids zeroed: ids differ
// between loads), then one "# map" line per map of the object as libbpf created it.
// Usage: golden OUTDIR OBJ... > OUTDIR/loads.tsv; exit 1 when it could not report a program.
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
static int quiet(enum libbpf_print_level l, const char *f, va_list a) { return 0; }
static int fail(const char *what, const char *path, int err) {
	fprintf(stderr, "golden: %s %s: %s\n", what, path, strerror(err));
	return 1;
}
// The xlated instructions and maps of a loaded program, or an errno value.
static int dump(const char *path, struct bpf_object *o, struct bpf_program *me) {
	FILE *f = fopen(path, "w");
	if (!f) return errno;
	struct bpf_prog_info info = {}; __u32 len = sizeof info;
	int fd = bpf_program__fd(me);
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) return errno;
	__u32 xl = info.xlated_prog_len;
	struct bpf_insn *ins = calloc(1, xl ? xl : 1);
	if (!ins) return ENOMEM;
	memset(&info, 0, sizeof info); len = sizeof info;
	info.xlated_prog_len = xl; info.xlated_prog_insns = (unsigned long)ins;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) return errno;
	fprintf(f, "# prog %s type %u: %u insns, %u func_info, %u line_info, btf %s\n", bpf_program__name(me), info.type,
		xl / 8, info.nr_func_info, info.nr_line_info, info.btf_id ? "yes" : "no");
	for (__u32 k = 0; k < xl / 8; k++) {
		struct bpf_insn x = ins[k];
		if (x.code == (BPF_LD | BPF_IMM | BPF_DW) && (x.src_reg == BPF_PSEUDO_MAP_FD || x.src_reg == BPF_PSEUDO_MAP_VALUE)
				&& k + 1 < xl / 8) {
			fprintf(f, "%02x %x %x %d map-ref\n", x.code, x.dst_reg, x.src_reg, x.off);
			k++;
			fprintf(f, "%02x %x %x %d %d\n", ins[k].code, ins[k].dst_reg, ins[k].src_reg, ins[k].off,
				x.src_reg == BPF_PSEUDO_MAP_VALUE ? ins[k].imm : 0);
			continue;
		}
		fprintf(f, "%02x %x %x %d %d\n", x.code, x.dst_reg, x.src_reg, x.off, x.imm);
	}
	struct bpf_map *m;
	bpf_object__for_each_map(m, o) {
		fprintf(f, "# map %s type %u key %u value %u max %u flags 0x%x btf_key %u btf_value %u\n", bpf_map__name(m),
			bpf_map__type(m), bpf_map__key_size(m), bpf_map__value_size(m), bpf_map__max_entries(m),
			bpf_map__map_flags(m), bpf_map__btf_key_type_id(m), bpf_map__btf_value_type_id(m));
	}
	free(ins);
	return fclose(f) ? errno : 0;
}
int main(int argc, char **argv) {
	if (argc < 2) { fprintf(stderr, "usage: golden OUTDIR OBJ...\n"); return 2; }
	libbpf_set_print(quiet);
	const char *outdir = argv[1];
	for (int a = 2; a < argc; a++) {
		struct bpf_object *o = bpf_object__open_file(argv[a], NULL);
		const char *base = strrchr(argv[a], '/'); base = base ? base + 1 : argv[a];
		if (!o) { printf("%s\t-\t-\topen: %s\n", base, strerror(errno)); continue; }
		struct bpf_program *p; int n = 0;
		bpf_object__for_each_program(p, o) n++;
		bpf_object__close(o);
		for (int i = 0; i < n; i++) {
			o = bpf_object__open_file(argv[a], NULL);
			if (!o) return fail("reopen", argv[a], errno);
			int j = 0; struct bpf_program *me = NULL;
			bpf_object__for_each_program(p, o) { bpf_program__set_autoload(p, j == i); if (j == i) me = p; j++; }
			int err = bpf_object__load(o);
			printf("%s\t%s\t%s\t%s\n", base, bpf_program__name(me), bpf_program__section_name(me), err ? strerror(-err) : "OK");
			if (!err) {
				char path[4096]; snprintf(path, sizeof path, "%s/%s.%s.xlated", outdir, base, bpf_program__name(me));
				int e = dump(path, o, me);
				if (e) return fail("xlated of", path, e);
			}
			bpf_object__close(o);
		}
	}
	return fflush(stdout) ? 1 : 0;
}

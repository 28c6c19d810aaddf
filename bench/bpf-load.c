// SPDX-License-Identifier: GPL-2.0
/*
 * bench/bpf-load OBJ: what `jperf bpf load OBJ` does, with libbpf: open the object, load every
 * program and map (no attach), print one line per program, close (unloading everything).
 * Build (bench/loader.sh does): gcc -O2 bpf-load.c -o bpf-load -lbpf
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static int quiet(enum libbpf_print_level l, const char *f, va_list a) { return 0; }

int main(int argc, char **argv)
{
	struct bpf_object *o;
	struct bpf_program *p;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: bpf-load OBJ\n");
		return 2;
	}
	libbpf_set_print(quiet);
	o = bpf_object__open_file(argv[1], NULL);
	if (!o) {
		fprintf(stderr, "bpf-load: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = bpf_object__load(o);
	bpf_object__for_each_program(p, o)
		printf("%s %s %d\n", bpf_program__name(p), bpf_program__section_name(p), bpf_program__fd(p));
	bpf_object__close(o);
	return err ? 1 : 0;
}

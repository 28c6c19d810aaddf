/* libc in the middle: qsort calls back into this program, so the callback's callers are libc's
 * own frames (msort_with_tmp recursing), unwound with libc's .eh_frame. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) static int compare(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	/* some work per comparison, so that samples land here more than in libc */
	for (int i = 0; i < 20; i++) {
		x = x * 6364136223846793005UL + 1;
		y = y * 6364136223846793005UL + 1;
	}
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	enum { N = 4096 };
	static unsigned long v[N];
	unsigned long seed = 1;
	for (unsigned long r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			v[i] = seed >> 17;
		}
		qsort(v, N, sizeof v[0], compare);
		sink += v[r % N];
	}
	return 0;
}

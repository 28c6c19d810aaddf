/* A deep call chain with no frame pointers: only DWARF unwinding (.eh_frame) sees the callers. */
#include <stdlib.h>

volatile unsigned long sink;

__attribute__((noinline)) void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

#define LEVEL(name, next)                          \
	__attribute__((noinline)) void name(unsigned long n) \
	{                                          \
		next(n);                           \
		sink++;                            \
	}

LEVEL(a6, leaf)
LEVEL(a5, a6)
LEVEL(a4, a5)
LEVEL(a3, a4)
LEVEL(a2, a3)
LEVEL(a1, a2)
LEVEL(b2, leaf)
LEVEL(b1, b2)

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	for (unsigned long r = 0; r < rounds; r++) {
		a1(1000000);
		b1(500000);
	}
	return 0;
}

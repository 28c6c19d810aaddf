// SPDX-License-Identifier: GPL-2.0
/* jperf-sample-spin [SECONDS]: calls spin_step() in a loop for SECONDS (default 1), for uprobes and profiles. */
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) unsigned long spin_step(unsigned long i)
{
	unsigned long x = i;
	for (int k = 0; k < 1000; k++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x & 0xff;
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 1.0;
	struct timespec start, now;
	unsigned long sum = 0, i = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		for (int k = 0; k < 100; k++)
			sum += spin_step(i++);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < seconds);
	return (int)(sum & 1);
}

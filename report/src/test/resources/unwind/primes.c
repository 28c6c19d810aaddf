/* The workload of the DWARF unwinding tests: a call chain through main, work, crunch_primes and
 * is_prime built without frame pointers, a timer signal whose handler computes too (frames through
 * the kernel's signal trampoline, __restore_rt), and calls into libc (qsort's callback). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

volatile long sink;

static __attribute__((noinline)) int is_prime(long n) {
    for (long d = 2; d * d <= n; d++) {
        if (n % d == 0) {
            return 0;
        }
    }
    return 1;
}

__attribute__((noinline)) long crunch_primes(long limit) {
    long c = 0;
    for (long i = 2; i < limit; i++) {
        c += is_prime(i);
    }
    return c;
}

static int compare(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return (x > y) - (x < y) + (int) (crunch_primes(40) & 0);
}

__attribute__((noinline)) long sort_some(int n) {
    long *v = malloc(n * sizeof(long));
    for (int i = 0; i < n; i++) {
        v[i] = (i * 7919L) % n;
    }
    qsort(v, n, sizeof(long), compare);
    long r = v[n / 2];
    free(v);
    return r;
}

static void on_timer(int sig) {
    sink += crunch_primes(3000 + sig);
}

__attribute__((noinline)) long work(int rounds) {
    long s = 0;
    for (int i = 0; i < rounds; i++) {
        s += crunch_primes(20000 + i);
        s += sort_some(2000);
    }
    return s;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_timer;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 20000}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    printf("%ld\n", work(rounds));
    return 0;
}

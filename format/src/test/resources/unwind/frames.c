/* Functions whose CFI covers what gcc emits: pushes of callee-saved registers, a frame pointer
 * (alloca), a big frame, tail calls, varargs, a signal handler, and calls through the PLT. */
#include <alloca.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile long sink;

__attribute__((noinline)) long leaf(long x) {
    for (long i = 0; i < x; i++) {
        sink += i * x;
    }
    return sink;
}

__attribute__((noinline)) long saves(long a, long b, long c, long d, long e) {
    long r = 0;
    for (long i = 0; i < a; i++) {
        r += leaf(b + i) * c + leaf(d) - e;
    }
    return r;
}

__attribute__((noinline)) long with_alloca(int n) {
    char *p = alloca(n);
    memset(p, n, n);
    return saves(p[0], p[n - 1], n, 3, 4);
}

__attribute__((noinline)) long big_frame(int n) {
    volatile char buf[70000];
    buf[n] = 1;
    return with_alloca(n + 16) + buf[n];
}

__attribute__((noinline)) long sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++) {
        s += va_arg(ap, long);
    }
    va_end(ap);
    return s + big_frame(n);
}

static void on_signal(int sig) {
    sink += leaf(sig);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8;
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
    printf("%ld\n", sum(3, (long) n, 2L, 3L));
    return 0;
}

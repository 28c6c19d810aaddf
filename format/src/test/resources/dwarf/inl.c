/* Functions gcc -O2 inlines into one another, for the inline chains addr2line -i reports. */
#include <stdlib.h>
#include <string.h>
static inline __attribute__((always_inline)) unsigned mix(unsigned x) {
    for (int i = 0; i < 50; i++)
        x = x * 2654435761u + (x >> 7);
    return x;
}
static inline unsigned step(unsigned x) {
    return mix(x) ^ mix(x + 1);
}
static unsigned twice(unsigned x) {
    return step(x) + step(x >> 1);
}
__attribute__((noinline)) unsigned work(unsigned n) {
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++)
        s += twice(i);
    return s;
}
static int cmp(const void *a, const void *b) {
    return *(const char *) a - *(const char *) b;
}
int main(int argc, char **argv) {
    char buf[4096];
    unsigned s = 0;
    int rounds = argc > 1 ? atoi(argv[1]) : 300;
    for (int k = 0; k < rounds; k++) {
        memset(buf, k, sizeof buf);
        s += work(20000) + (unsigned) strlen(buf);
        qsort(buf, 64, 1, cmp);
    }
    return s == 1;
}

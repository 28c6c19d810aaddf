#include <stdio.h>
#include "t.h"
static int sq(int x) { return x * x; }
int work(int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += sq(i) + helper(i);
    return s;
}
int main(int argc, char **argv) {
    printf("%d\n", work(argc * 1000));
    return 0;
}

static inline int helper(int x) {
    return x ^ (x >> 3);
}

#include <vector>
#include <cstdlib>
namespace ns {
template <typename T> struct Acc { T v{}; void add(T x) { v += x * x % 7; } };
long run(long n) {
    Acc<long> a;
    std::vector<long> xs(1000);
    for (long i = 0; i < n; i++) { xs[i % 1000] = i; a.add(xs[(i * 7) % 1000]); }
    return a.v;
}
}
int main(int c, char **v) { return (int)(ns::run(c > 1 ? atol(v[1]) : 100000000) & 1); }

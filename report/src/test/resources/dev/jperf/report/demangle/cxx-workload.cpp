// C++ workload for jperf's demangling test: templates, std:: containers, lambdas, virtual calls,
// operators, an anonymous namespace and a clone-prone static; perf 6.1 recorded it (cpu-clock:u).
#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace {
struct Shape {
    virtual ~Shape() = default;
    virtual double area(int scale) const = 0;
};
struct Square : Shape {
    double side;
    explicit Square(double s) : side(s) {}
    __attribute__((noinline)) double area(int scale) const override {
        volatile double a = 0;
        for (int i = 0; i < 4000; i++) a += side * side * scale;
        return a;
    }
};
}  // namespace

namespace geo {
template <typename T, int N>
struct Vec {
    T v[N];
    __attribute__((noinline)) Vec operator+(const Vec& o) const {
        Vec r{};
        for (int k = 0; k < 2000; k++)
            for (int i = 0; i < N; i++) r.v[i] = v[i] + o.v[i] + k;
        return r;
    }
};
}  // namespace geo

__attribute__((noinline)) static long count_words(const std::map<std::string, int>& m, const std::string& key) {
    long n = 0;
    for (int k = 0; k < 300; k++) {
        auto it = m.find(key + std::to_string(k % 50));
        if (it != m.end()) n += it->second;
    }
    return n;
}

int main() {
    std::map<std::string, int> words;
    for (int i = 0; i < 50; i++) words["w" + std::to_string(i)] = i;
    std::vector<int> data(20000);
    long total = 0;
    Square sq(1.5);
    const Shape& s = sq;
    geo::Vec<double, 8> a{}, b{};
    for (int round = 0; round < 400; round++) {
        for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<int>((i * 2654435761u + round) % 100000);
        std::sort(data.begin(), data.end(), [round](int x, int y) { return (x ^ round) < (y ^ round); });
        total += count_words(words, "w");
        total += static_cast<long>(s.area(round));
        a = a + b;
    }
    return static_cast<int>(total + a.v[0]) & 1;
}

// C++ with exceptions: personality and LSDA in the CIEs and FDEs (augmentation zPLR), cleanups.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
    std::string name;
    explicit Guard(std::string n) : name(std::move(n)) {}
    ~Guard() { std::printf("%s\n", name.c_str()); }
};

__attribute__((noinline)) int thrower(int n) {
    Guard g("thrower");
    if (n > 2) {
        throw std::runtime_error("too big: " + std::to_string(n));
    }
    return n * 2;
}

__attribute__((noinline)) int catcher(int n) {
    std::vector<int> v(n, 1);
    try {
        return thrower(n) + static_cast<int>(v.size());
    } catch (const std::exception &e) {
        std::printf("caught %s\n", e.what());
        return -1;
    }
}

int main(int argc, char **) {
    return catcher(argc + 2) < 0 ? 0 : 1;
}

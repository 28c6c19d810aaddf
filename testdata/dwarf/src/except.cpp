// C++ with templates and exceptions: a template recursion five levels deep whose innermost
// level throws now and then, caught two frames above main; the unwinder's own code (libgcc's
// _Unwind_*, libstdc++'s __cxa_throw) is linked in statically, so it is in this binary.
#include <cstdlib>
#include <stdexcept>

volatile long sink;

template <typename T, int N> struct Level {
	__attribute__((noinline)) static T run(T x)
	{
		T r = Level<T, N - 1>::run(x + 1);
		sink = sink + 1;
		return r;
	}
};

template <typename T> struct Level<T, 0> {
	__attribute__((noinline)) static T run(T x)
	{
		T s = 0;
		for (int i = 0; i < 3000; i++)
			s += (x * i) ^ (s >> 3);
		if (s % 5 == 3)
			throw std::runtime_error("odd");
		return s;
	}
};

__attribute__((noinline)) long attempt(long x)
{
	try {
		return Level<long, 5>::run(x);
	} catch (const std::runtime_error &) {
		return -1;
	}
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? std::atol(argv[1]) : 1000;
	for (long i = 0; i < rounds; i++)
		sink = sink + attempt(i);
	return 0;
}

// pcg_cpp_reference: prints the first COUNT outputs of pcg32(INITSTATE, STREAM)
// from Debian's libpcg-cpp (O'Neill's C++ implementation), one hex number a
// line. tests/test_rng_pcg.c compares our C generator against it.
#include <cstdio>
#include <cstdlib>
#include <pcg_random.hpp>

int main(int argc, char **argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: pcg_cpp_reference INITSTATE STREAM COUNT\n");
        return 2;
    }
    unsigned long long state = std::strtoull(argv[1], nullptr, 0);
    unsigned long long stream = std::strtoull(argv[2], nullptr, 0);
    long count = std::strtol(argv[3], nullptr, 0);
    pcg32 rng(state, stream);
    for (long i = 0; i < count; i++)
        std::printf("%08x\n", (unsigned)rng());
    return 0;
}

// Which levels this CPU runs, asked of the CPU (cpuid through the compiler's builtins).

#include "kernels.h"

int tl_level_supported(int level) {
  switch (level) {
  case TL_LEVEL_GENERIC:
    return 1;
#if defined(__x86_64__)
  case TL_LEVEL_SSE2:
    return 1;
  case TL_LEVEL_AVX2:
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2");
  case TL_LEVEL_AVX512:
    __builtin_cpu_init();
    return tl_level_supported(TL_LEVEL_AVX2) && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512dq");
#endif
  default:
    return 0;
  }
}

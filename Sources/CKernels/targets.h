#ifndef TRAFFIC_LIGHT_TARGETS_H
#define TRAFFIC_LIGHT_TARGETS_H

// The `target` attributes of the x86-64 levels: a function so marked is compiled for that
// instruction set whatever the build's own target, and runs only where tl_level_supported
// says the CPU has it.
#if defined(__x86_64__)
#define TL_TARGET_SSE2
#define TL_TARGET_AVX2 __attribute__((target("avx2,fma,bmi,bmi2,popcnt")))
#define TL_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,bmi,bmi2,popcnt")))
#endif

#define TL_INLINE static inline __attribute__((always_inline))

#endif

"""The kernels built for x86-64-v2 (POPCNT); shashki._core.cpu chooses them where the CPU has it."""

// Deliberately unportable when linked without the arc4random shim: GCC 12's static libstdc++
// makes std::random_device need arc4random@GLIBC_2.36. The portability checker must catch it.
#include <iostream>
#include <random>

int main() {
  std::random_device device;
  std::cout << device() % 2 << "\n";
  return 0;
}

// Placeholder entry point; the CLI lands in apps/cli/.
#include <cstdio>

#include "strmatch/exact.hpp"

int main() {
  std::printf("strmatch %s\n", strmatch::build_info().version.c_str());
  return 0;
}

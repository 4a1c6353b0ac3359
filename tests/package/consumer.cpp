// Links against the installed strmatch and checks one search against a hand-written answer.
#include <strmatch/exact.hpp>

int main() {
  const auto offsets = strmatch::find_all_offsets("abracadabra", "abra");
  return offsets == std::vector<std::uint64_t>{0, 7} ? 0 : 1;
}

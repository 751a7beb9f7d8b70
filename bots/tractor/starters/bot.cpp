// A first Tractor simulator in C++: reads every case and answers in the contest's shape, scoring
// nothing yet. The input and output are described in bot.py beside this file.
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
#include <iostream>
#include <string>

int main() {
    int cases;
    if (!(std::cin >> cases)) return 0;
    for (int k = 1; k <= cases; ++k) {
        std::string main_suit, dealer, rank1, rank2, play;
        std::cin >> main_suit >> dealer >> rank1 >> rank2;
        for (int played = 0; played < 4 * 25 && std::cin >> play;) played += play.size() / 2;
        std::cout << "Case #" << k << ":\n0\n" << rank1 << " " << rank2 << " " << dealer << "\n";
    }
    return 0;
}

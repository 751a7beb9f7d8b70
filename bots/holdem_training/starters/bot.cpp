// A first Hold'em Training bot in C++: asks the judge for its winning chances, raises when they
// are good. The protocol is described in bot.py beside this file (the same bot in Python).
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
#include <algorithm>
#include <iostream>
#include <string>

static const int ROLLOUTS = 60;          // 10,000 hands x 4 rounds x 60 stays inside the 3,000,000 budget
static double RAISE_ABOVE = 0.62;  // winning chance (ties count half) from which we bet; argv[1] sets it

int main(int argc, char **argv) {
    if (argc > 1) RAISE_ABOVE = std::stod(argv[1]);
    std::string word;
    int hands;
    if (!(std::cin >> hands)) return 0;
    while (std::cin >> word) {
        if (word == "SCORE") break;
        if (word == "OPP" || word == "RESULT") {  // the rest of the line says what happened
            std::string rest;
            std::getline(std::cin, rest);
            continue;
        }
        // STATE hand round my_stack opp_stack pot board_count
        int hand, round, my_stack, opp_stack, pot, board_count;
        std::cin >> hand >> round >> my_stack >> opp_stack >> pot >> board_count;
        std::string tag;
        int suit1, value1, suit2, value2;
        std::cin >> tag >> suit1 >> value1 >> suit2 >> value2;  // ALICE: your cards
        std::cin >> tag;                                        // BOARD
        for (int i = 0; i < 2 * board_count; ++i) std::cin >> suit1;
        std::cout << "RATE " << ROLLOUTS << std::endl;
        double win, tie;
        std::cin >> tag >> win >> tie;  // RATES win tie
        if (win + tie / 2 >= RAISE_ABOVE && my_stack > 0)
            std::cout << "ACTION RAISE " << std::max(1, std::min(my_stack, pot)) << std::endl;
        else
            std::cout << "ACTION CHECK" << std::endl;
    }
    return 0;
}

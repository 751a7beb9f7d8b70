// A first CodinGame Hold'em bot in C++: plays pairs and high cards, folds the rest.
// The protocol is described in bot.py beside this file (the same bot in Python).
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
#include <iostream>
#include <string>
#include <vector>

static int rank_of(char c) { return std::string("23456789TJQKA").find(c); }

static std::vector<std::string> counted_lines() {
    int n;
    std::cin >> n;
    std::string text;
    std::getline(std::cin, text);  // the end of the count's line
    std::vector<std::string> out(n);
    for (auto &line : out) std::getline(std::cin, line);
    return out;
}

int main(int argc, char **argv) {
    const char lowest = argc > 1 ? argv[1][0] : 'T';  // the lowest card of a hand we play
    int setup[8];
    for (int &x : setup)
        if (!(std::cin >> x)) return 0;
    const int players = setup[6];
    int round, hand;
    while (std::cin >> round >> hand) {
        for (int s = 0; s < players; ++s) {
            long long stack, chips;
            std::cin >> stack >> chips;
        }
        std::string board, cards;
        std::cin >> board >> cards;  // e.g. As_Td
        counted_lines();             // actions since my last turn
        counted_lines();             // hands shown down since my last turn
        std::vector<std::string> possible = counted_lines();
        auto can = [&](const std::string &a) {
            for (auto &p : possible)
                if (p == a) return true;
            return false;
        };
        const bool pair = cards[0] == cards[3];
        const bool high = rank_of(cards[0]) >= rank_of(lowest) && rank_of(cards[3]) >= rank_of(lowest);
        std::string answer = can("CHECK") ? "CHECK" : "FOLD";
        if (pair || high) answer = can("CALL") ? "CALL" : can("ALL-IN") ? "ALL-IN" : answer;
        std::cout << answer << std::endl;
    }
    return 0;
}

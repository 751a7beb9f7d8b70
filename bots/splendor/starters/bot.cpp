// A first Splendor agent in C++: buys the face-up card worth most points it can afford, else
// takes chips. The protocol is described in bot.py beside this file (the same agent in Python).
// The arbiter runs it once per move in this folder; cards.csv beside it lists every card.
// Build: g++ -O2 -std=c++17 -o bot bot.cpp
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct Card { int points, bonus; int cost[5]; };

static std::vector<int> read_list(std::istream &in) {  // a count, then that many ids
    int n;
    in >> n;
    std::vector<int> ids(n);
    for (int &id : ids) in >> id;
    return ids;
}

int main(int, char **argv) {
    std::string folder = argv[0];
    folder = folder.substr(0, folder.find_last_of('/') + 1);
    std::map<int, Card> cards;
    std::ifstream table(folder + "cards.csv");
    std::string row;
    std::getline(table, row);  // id,level,bonus_color,bonus_index,points,cost_red..cost_black
    while (std::getline(table, row)) {
        std::replace(row.begin(), row.end(), ',', ' ');
        std::istringstream fields(row);
        int id, level;
        std::string colour;
        Card c;
        fields >> id >> level >> colour >> c.bonus >> c.points;
        for (int &x : c.cost) fields >> x;
        cards[id] = c;
    }
    int players, me, round;
    std::cin >> players >> me >> round;
    int board[6];
    for (int &x : board) std::cin >> x;
    std::vector<int> face_up;
    for (int level = 0; level < 3; ++level) {
        int hidden, id;
        std::cin >> hidden;
        for (int slot = 0; slot < 4; ++slot)
            if (std::cin >> id, id > 0) face_up.push_back(id);
    }
    read_list(std::cin);  // nobles
    int chips[6] = {0}, bonus[5] = {0};
    for (int seat = 1; seat <= players; ++seat) {
        int seat_chips[6];
        for (int &x : seat_chips) std::cin >> x;
        std::vector<int> bought = read_list(std::cin);
        read_list(std::cin);  // reserved
        read_list(std::cin);  // nobles
        if (seat != me) continue;
        std::copy(seat_chips, seat_chips + 6, chips);
        for (int id : bought) bonus[cards[id].bonus]++;
    }
    int best = 0;
    for (int id : face_up) {
        int missing = 0;
        for (int i = 0; i < 5; ++i) missing += std::max(0, cards[id].cost[i] - bonus[i] - chips[i]);
        if (missing <= chips[5] && (best == 0 || cards[id].points > cards[best].points)) best = id;
    }
    if (best) {
        std::cout << "4 " << best << std::endl;
        return 0;
    }
    int held = 0;
    for (int x : chips) held += x;
    std::vector<int> colours = {0, 1, 2, 3, 4};
    std::stable_sort(colours.begin(), colours.end(), [&](int a, int b) { return board[a] > board[b]; });
    std::vector<int> take;
    for (int c : colours)
        if (board[c] > 0 && (int)take.size() < std::min(3, 10 - held)) take.push_back(c);
    std::cout << "1 " << take.size();
    for (int c : take) std::cout << " " << c;
    std::cout << std::endl;
    return 0;
}

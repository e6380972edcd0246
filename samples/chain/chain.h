#ifndef CHAIN_H
#define CHAIN_H
int level1(int x);
int level2(int x);
int level3(int x);
int level4(int x);
int level5(int x);
int side(int x);
#endif

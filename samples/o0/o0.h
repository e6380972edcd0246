int small_leaf(int a, int b);
int big_leaf(int x);
int middle(int x);

#ifndef LTO_H
#define LTO_H

int filter_run(int n);
int filter_tap(int x);
int report(int v);
int report_twice(int v);

#endif

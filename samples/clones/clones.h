#ifndef CLONES_H
#define CLONES_H
struct config {
	int scale;
	int pad[64];
	int offset;
};
int run_hot(int x);
int run_config(int x);
__attribute__((cold)) int report_failure(int code);
#endif

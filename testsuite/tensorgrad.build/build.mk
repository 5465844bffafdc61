# The makefile of build.exp's make test, run in a directory of its own
# with CC and PLUGIN given: kern.o's compile writes kern.h, which main.c
# includes.  The empty recipe of kern.h leaves it as old as the plugin
# left it, so main.o is compiled again only when kern.h changed.

prog: main.o kern.o
	$(CC) -o $@ main.o kern.o -lm

kern.o: kern.c
	$(CC) -fplugin=$(PLUGIN) -fplugin-arg-tensorgrad-header=kern.h -c kern.c

kern.h: kern.o ;

main.o: main.c kern.h
	$(CC) -c main.c

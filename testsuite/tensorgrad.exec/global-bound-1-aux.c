/* The definition global-bound-1.c does not see: its kernel reads ROWS
   when it runs.  */
const int ROWS = 3;

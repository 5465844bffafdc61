/* { dg-do compile } */
/* The attribute on a global variable declaration.  */

__attribute__ ((differentiable)) double learning_rate = 0.1; /* { dg-error ".differentiable. attribute only applies to functions" } */

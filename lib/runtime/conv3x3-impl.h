/* conv3x3-impl.h -- the body of conv3x3.c for one element type T: the
   convolution CONV and its gradient CONV_GRAD (a NULL bias: none), the
   same without a bias parameter CONV_NOBIAS and CONV_NOBIAS_GRAD, the
   static helpers named
   SUFFIX (name), the products the GEMM_FN the caller passes.  Included
   once per type; see conv3x3.c.  */

/* C (M x N, row LDC) = op (A) op (B) + BETA C, row-major: by GEMM (a
   CBLAS's), else these loops.  */
static void
SUFFIX (gemm) (GEMM_FN *gemm, int ta, int tb, long m, long n, long k,
	       const T *a, long lda, const T *b, long ldb, T beta, T *c,
	       long ldc)
{
  if (gemm)
    {
      gemm (ROW_MAJOR, ta ? TRANS : NO_TRANS, tb ? TRANS : NO_TRANS,
		  (int) m, (int) n, (int) k, 1, a, (int) lda, b, (int) ldb,
		  beta, c, (int) ldc);
      return;
    }
  for (long i = 0; i < m; i++)
    {
      T *ci = c + i * ldc;
      for (long j = 0; j < n; j++)
	ci[j] = beta == 0 ? 0 : beta * ci[j];
      for (long p = 0; p < k; p++)
	{
	  T av = ta ? a[p * lda + i] : a[i * lda + p];
	  if (tb)
	    for (long j = 0; j < n; j++)
	      ci[j] += av * b[j * ldb + p];
	  else
	    for (long j = 0; j < n; j++)
	      ci[j] += av * b[p * ldb + j];
	}
    }
}

/* V[xi * VS + ty * TW + tx] = (B^T d B)[xi] for each tile d of IMG
   (H x W, zeros outside).  */
static void
SUFFIX (in_transform) (long h, long w, const T *img, T *v, long vs)
{
  long th = (h + 1) / 2, tw = (w + 1) / 2, w2 = 2 * tw + 2;
  T r[4][w2 + 2], t[4][w2 + 2];
  for (long ty = 0; ty < th; ty++)
    {
      for (int i = 0; i < 4; i++)
	{
	  long ih = 2 * ty - 1 + i;
	  memset (r[i], 0, sizeof (T) * (w2 + 2));
	  if (ih >= 0 && ih < h)
	    memcpy (r[i] + 1, img + ih * w, sizeof (T) * w);
	}
      for (long c = 0; c < w2; c++)
	{
	  t[0][c] = r[0][c] - r[2][c];
	  t[1][c] = r[1][c] + r[2][c];
	  t[2][c] = r[2][c] - r[1][c];
	  t[3][c] = r[1][c] - r[3][c];
	}
      for (int i = 0; i < 4; i++)
	{
	  T *v0 = v + (i * 4) * vs + ty * tw, *v1 = v0 + vs, *v2 = v1 + vs;
	  T *v3 = v2 + vs;
	  const T *ti = t[i];
	  for (long tx = 0; tx < tw; tx++)
	    {
	      T a = ti[2 * tx], b = ti[2 * tx + 1], c = ti[2 * tx + 2];
	      T d = ti[2 * tx + 3];
	      v0[tx] = a - c;
	      v1[tx] = b + c;
	      v2[tx] = c - b;
	      v3[tx] = b - d;
	    }
	}
    }
}

/* IMG (H x W) = A^T M A + BIAS, M[xi * MS + tile].  */
static void
SUFFIX (out_transform) (long h, long w, const T *m, long ms, T bias, T *img)
{
  long th = (h + 1) / 2, tw = (w + 1) / 2;
  T s[4][tw], u[4][tw], y0[2 * tw], y1[2 * tw];
  for (long ty = 0; ty < th; ty++)
    {
      for (int j = 0; j < 4; j++)
	{
	  const T *m0 = m + j * ms + ty * tw, *m1 = m0 + 4 * ms;
	  const T *m2 = m1 + 4 * ms, *m3 = m2 + 4 * ms;
	  for (long tx = 0; tx < tw; tx++)
	    {
	      s[j][tx] = m0[tx] + m1[tx] + m2[tx];
	      u[j][tx] = m1[tx] - m2[tx] - m3[tx];
	    }
	}
      for (long tx = 0; tx < tw; tx++)
	{
	  y0[2 * tx] = s[0][tx] + s[1][tx] + s[2][tx] + bias;
	  y0[2 * tx + 1] = s[1][tx] - s[2][tx] - s[3][tx] + bias;
	  y1[2 * tx] = u[0][tx] + u[1][tx] + u[2][tx] + bias;
	  y1[2 * tx + 1] = u[1][tx] - u[2][tx] - u[3][tx] + bias;
	}
      memcpy (img + 2 * ty * w, y0, sizeof (T) * w);
      if (2 * ty + 1 < h)
	memcpy (img + (2 * ty + 1) * w, y1, sizeof (T) * w);
    }
}

/* dM[xi * MS + tile] = A dY A^T, the adjoint of out_transform.  */
static void
SUFFIX (out_adjoint) (long h, long w, const T *dimg, T *dm, long ms)
{
  long th = (h + 1) / 2, tw = (w + 1) / 2;
  T e0[2 * tw + 2], e1[2 * tw + 2];
  for (long ty = 0; ty < th; ty++)
    {
      memset (e0, 0, sizeof e0);
      memset (e1, 0, sizeof e1);
      memcpy (e0, dimg + 2 * ty * w, sizeof (T) * w);
      if (2 * ty + 1 < h)
	memcpy (e1, dimg + (2 * ty + 1) * w, sizeof (T) * w);
      T *base = dm + ty * tw;
      for (long tx = 0; tx < tw; tx++)
	{
	  T a0 = e0[2 * tx], a1 = e0[2 * tx + 1];
	  T b0 = e1[2 * tx], b1 = e1[2 * tx + 1];
	  T q0[4] = { a0, a0 + a1, a0 - a1, -a1 };
	  T q1[4] = { b0, b0 + b1, b0 - b1, -b1 };
	  for (int j = 0; j < 4; j++)
	    {
	      base[j * ms + tx] = q0[j];
	      base[(4 + j) * ms + tx] = q0[j] + q1[j];
	      base[(8 + j) * ms + tx] = q0[j] - q1[j];
	      base[(12 + j) * ms + tx] = -q1[j];
	    }
	}
    }
}

/* DIMG += B dV B^T over the overlapping tiles, the adjoint of
   in_transform.  */
static void
SUFFIX (in_adjoint) (long h, long w, const T *dv, long vs, T *dimg)
{
  long th = (h + 1) / 2, tw = (w + 1) / 2, w2 = 2 * tw + 2;
  T dd[4][4][tw + 1], acc[4][w2], prev[2][w2];
  memset (prev, 0, sizeof prev);
  for (long ty = 0; ty < th; ty++)
    {
      const T *v = dv + ty * tw;
      for (long tx = 0; tx < tw; tx++)
	{
	  T p[4][4];
	  for (int i = 0; i < 4; i++)
	    {
	      T v0 = v[(i * 4) * vs + tx], v1 = v[(i * 4 + 1) * vs + tx];
	      T v2 = v[(i * 4 + 2) * vs + tx], v3 = v[(i * 4 + 3) * vs + tx];
	      p[i][0] = v0;
	      p[i][1] = v1 - v2 + v3;
	      p[i][2] = v1 + v2 - v0;
	      p[i][3] = -v3;
	    }
	  for (int cc = 0; cc < 4; cc++)
	    {
	      dd[0][cc][tx] = p[0][cc];
	      dd[1][cc][tx] = p[1][cc] - p[2][cc] + p[3][cc];
	      dd[2][cc][tx] = p[1][cc] + p[2][cc] - p[0][cc];
	      dd[3][cc][tx] = -p[3][cc];
	    }
	}
      for (int r = 0; r < 4; r++)
	{
	  T *ar = acc[r];
	  ar[0] = dd[r][0][0];
	  ar[1] = dd[r][1][0];
	  for (long tx = 1; tx < tw; tx++)
	    {
	      ar[2 * tx] = dd[r][0][tx] + dd[r][2][tx - 1];
	      ar[2 * tx + 1] = dd[r][1][tx] + dd[r][3][tx - 1];
	    }
	  ar[2 * tw] = dd[r][2][tw - 1];
	  ar[2 * tw + 1] = dd[r][3][tw - 1];
	}
      for (long c = 0; c < w2; c++)
	{
	  acc[0][c] += prev[0][c];
	  acc[1][c] += prev[1][c];
	}
      for (int rr = 0; rr < 2; rr++)
	{
	  long ih = 2 * ty - 1 + rr;
	  if (ih >= 0 && ih < h)
	    for (long iw = 0; iw < w; iw++)
	      dimg[ih * w + iw] += acc[rr][iw + 1];
	}
      memcpy (prev[0], acc[2], sizeof (T) * w2);
      memcpy (prev[1], acc[3], sizeof (T) * w2);
    }
  for (int rr = 0; rr < 2; rr++)
    {
      long ih = 2 * th - 1 + rr;
      if (ih >= 0 && ih < h)
	for (long iw = 0; iw < w; iw++)
	  dimg[ih * w + iw] += prev[rr][iw + 1];
    }
}

/* U[(xi * F + o) * C + ci] = (G g G^T)[xi] of each filter pair g.  */
static void
SUFFIX (filter_transform) (long f, long c, const T *wt, T *u)
{
  const T half = 0.5;
  for (long o = 0; o < f; o++)
    for (long ci = 0; ci < c; ci++)
      {
	const T *g = wt + (o * c + ci) * 9;
	T t[4][3];
	for (int j = 0; j < 3; j++)
	  {
	    t[0][j] = g[j];
	    t[1][j] = half * (g[j] + g[3 + j] + g[6 + j]);
	    t[2][j] = half * (g[j] - g[3 + j] + g[6 + j]);
	    t[3][j] = g[6 + j];
	  }
	for (int i = 0; i < 4; i++)
	  {
	    T r[4] = { t[i][0], half * (t[i][0] + t[i][1] + t[i][2]),
		       half * (t[i][0] - t[i][1] + t[i][2]), t[i][2] };
	    for (int j = 0; j < 4; j++)
	      u[((i * 4 + j) * f + o) * c + ci] = r[j];
	  }
      }
}

/* DWT += G^T dU G, the adjoint of filter_transform.  */
static void
SUFFIX (filter_adjoint) (long f, long c, const T *du, T *dwt)
{
  const T half = 0.5;
  for (long o = 0; o < f; o++)
    for (long ci = 0; ci < c; ci++)
      {
	T d[4][4], q[4][3];
	for (int i = 0; i < 4; i++)
	  for (int j = 0; j < 4; j++)
	    d[i][j] = du[((i * 4 + j) * f + o) * c + ci];
	for (int i = 0; i < 4; i++)
	  {
	    q[i][0] = d[i][0] + half * (d[i][1] + d[i][2]);
	    q[i][1] = half * (d[i][1] - d[i][2]);
	    q[i][2] = half * (d[i][1] + d[i][2]) + d[i][3];
	  }
	T *g = dwt + (o * c + ci) * 9;
	for (int b = 0; b < 3; b++)
	  {
	    g[b] += q[0][b] + half * (q[1][b] + q[2][b]);
	    g[3 + b] += half * (q[1][b] - q[2][b]);
	    g[6 + b] += half * (q[1][b] + q[2][b]) + q[3][b];
	  }
      }
}

/* The direct sums, forward (DY NULL) or gradient: when the workspace
   cannot be had or a size passes the CBLAS's int.  */
static void
SUFFIX (direct) (long nb, long c, long h, long w, long f, const T *x,
		 const T *wt, const T *b, T *y, T *dx, T *dwt, T *db,
		 const T *dy)
{
  long p = h * w;
  for (long n = 0; n < nb; n++)
    for (long o = 0; o < f; o++)
      for (long oh = 0; oh < h; oh++)
	for (long ow = 0; ow < w; ow++)
	  {
	    long at = (n * f + o) * p + oh * w + ow;
	    T acc = dy || !b ? 0 : b[o], g = dy ? dy[at] : 0;
	    if (dy && db)
	      db[o] += g;
	    for (long ci = 0; ci < c; ci++)
	      for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
		  {
		    long ih = oh + kh - 1, iw = ow + kw - 1;
		    if (ih < 0 || ih >= h || iw < 0 || iw >= w)
		      continue;
		    long xi = (n * c + ci) * p + ih * w + iw;
		    long wi = (o * c + ci) * 9 + kh * 3 + kw;
		    if (!dy)
		      acc += x[xi] * wt[wi];
		    else
		      {
			if (dx)
			  dx[xi] += g * wt[wi];
			if (dwt)
			  dwt[wi] += g * x[xi];
		      }
		  }
	    if (!dy)
	      y[at] = acc;
	  }
}

/* The sizes of the workspace's slices for H x W images of C channels
   into F filters: tiles, VS and MS; false when a product's size passes
   int, NT threads' workspaces pass a long, or a row is wider than the
   transforms' rows on the stack hold.  */
static int
SUFFIX (slices) (long c, long h, long w, long f, int nt, long *ti,
		 long *vs, long *ms)
{
  *ti = ((h + 1) / 2) * ((w + 1) / 2);
  *vs = c * *ti + PAD;
  *ms = f * *ti + PAD;
  long most = LONG_MAX / 16 / (long) sizeof (T) / nt;
  return w <= MAX_WIDTH && *ti <= INT_MAX && c <= INT_MAX && f <= INT_MAX
	 && *vs <= most && *ms <= most && f * c <= most;
}

void
CONV (long nb, long c, long h, long w, long f, const T *x, const T *wt,
      const T *b, T *y, GEMM_FN *gemm)
{
  if (nb <= 0 || f <= 0 || h <= 0 || w <= 0)
    return;
  long ti, vs, ms, p = h * w;
  int nt = threads_for (nb);
  unsigned char *ws = NULL;
  size_t su, sv;
  if (c > 0 && SUFFIX (slices) (c, h, w, f, nt, &ti, &vs, &ms))
    {
      su = part (16 * f * c, sizeof (T));
      sv = part (16 * vs * nt, sizeof (T));
      ws = workspace (su + sv + part (16 * ms * nt, sizeof (T)));
    }
  if (!ws)
    {
      SUFFIX (direct) (nb, c, h, w, f, x, wt, b, y, NULL, NULL, NULL, NULL);
      return;
    }
  T *u = (T *) ws, *v = (T *) (ws + su), *m = (T *) (ws + su + sv);
  SUFFIX (filter_transform) (f, c, wt, u);
  /* The images split over the team OpenMP gives (one inside another
     region), each thread with its V and M.  */
#pragma omp parallel num_threads (nt) if (nt > 1)
  {
    int id = thread_id (), nth = team_size ();
    T *tv = v + 16 * vs * id, *tm = m + 16 * ms * id;
    for (long n = nb * id / nth; n < nb * (id + 1) / nth; n++)
      {
	for (long ci = 0; ci < c; ci++)
	  SUFFIX (in_transform) (h, w, x + (n * c + ci) * p, tv + ci * ti, vs);
	for (int xi = 0; xi < 16; xi++)
	  SUFFIX (gemm) (gemm, 0, 0, f, ti, c, u + xi * f * c, c,
			 tv + xi * vs, ti, 0, tm + xi * ms, ti);
	for (long o = 0; o < f; o++)
	  SUFFIX (out_transform) (h, w, tm + o * ti, ms, b ? b[o] : 0,
				  y + (n * f + o) * p);
      }
  }
}

void
CONV_GRAD (long nb, long c, long h, long w, long f, const T *x,
	   const T *wt, const T *b, T *y, T *dx, T *dwt, T *db, T *dy,
	   GEMM_FN *gemm)
{
  (void) b, (void) y;
  if (nb <= 0 || f <= 0 || h <= 0 || w <= 0 || !dy)
    return;
  long p = h * w;
  if (db)
    for (long n = 0; n < nb; n++)
      for (long o = 0; o < f; o++)
	{
	  const T *d = dy + (n * f + o) * p;
	  T acc = 0;
	  for (long i = 0; i < p; i++)
	    acc += d[i];
	  db[o] += acc;
	}
  if ((!dx && !dwt) || c <= 0)
    return;
  long ti, vs, ms;
  int nt = threads_for (nb);
  unsigned char *ws = NULL;
  size_t su, sv, sm;
  if (SUFFIX (slices) (c, h, w, f, nt, &ti, &vs, &ms))
    {
      su = part (16 * f * c, sizeof (T));
      sv = part (16 * vs * nt, sizeof (T));
      sm = part (16 * ms * nt, sizeof (T));
      ws = workspace (su + sv + sm
		      + (dwt ? part (16 * f * c * nt, sizeof (T)) : 0));
    }
  if (!ws)
    {
      SUFFIX (direct) (nb, c, h, w, f, x, wt, NULL, NULL, dx, dwt, NULL, dy);
      return;
    }
  T *u = (T *) ws, *v = (T *) (ws + su), *m = (T *) (ws + su + sv);
  T *du = dwt ? (T *) (ws + su + sv + sm) : NULL;
  if (du)
    memset (du, 0, sizeof (T) * 16 * f * c * nt);
  SUFFIX (filter_transform) (f, c, wt, u);
  /* The images split over the team, each thread with its V, M and
     partial d_U, added in the order of the threads after.  */
  int used = 1;
#pragma omp parallel num_threads (nt) if (nt > 1)
  {
    int id = thread_id (), nth = team_size ();
    if (id == 0)
      used = nth;
    T *tv = v + 16 * vs * id, *tm = m + 16 * ms * id;
    T *tdu = du ? du + 16 * f * c * id : NULL;
    for (long n = nb * id / nth; n < nb * (id + 1) / nth; n++)
      {
	for (long o = 0; o < f; o++)
	  SUFFIX (out_adjoint) (h, w, dy + (n * f + o) * p, tm + o * ti, ms);
	if (dwt)
	  for (long ci = 0; ci < c; ci++)
	    SUFFIX (in_transform) (h, w, x + (n * c + ci) * p, tv + ci * ti,
				   vs);
	for (int xi = 0; xi < 16; xi++)
	  {
	    /* d_U[xi] (f x c) += dM[xi] (f x tiles) V[xi]^T; then
	       dV[xi] (c x tiles) = U[xi]^T dM[xi], in V's place.  */
	    if (dwt)
	      SUFFIX (gemm) (gemm, 0, 1, f, c, ti, tm + xi * ms, ti,
			     tv + xi * vs, ti, 1, tdu + xi * f * c, c);
	    if (dx)
	      SUFFIX (gemm) (gemm, 1, 0, c, ti, f, u + xi * f * c, c,
			     tm + xi * ms, ti, 0, tv + xi * vs, ti);
	  }
	if (dx)
	  for (long ci = 0; ci < c; ci++)
	    SUFFIX (in_adjoint) (h, w, tv + ci * ti, vs,
				 dx + (n * c + ci) * p);
      }
  }
  if (dwt)
    {
      for (int t = 1; t < used; t++)
	for (long i = 0; i < 16 * f * c; i++)
	  du[i] += du[16 * f * c * t + i];
      SUFFIX (filter_adjoint) (f, c, du, dwt);
    }
}

void
CONV_NOBIAS (long nb, long c, long h, long w, long f, const T *x,
	     const T *wt, T *y, GEMM_FN *gemm)
{
  CONV (nb, c, h, w, f, x, wt, NULL, y, gemm);
}

void
CONV_NOBIAS_GRAD (long nb, long c, long h, long w, long f, const T *x,
		  const T *wt, T *y, T *dx, T *dwt, T *dy, GEMM_FN *gemm)
{
  CONV_GRAD (nb, c, h, w, f, x, wt, NULL, y, dx, dwt, NULL, dy, gemm);
}

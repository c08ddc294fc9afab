// category: loop-induction
// expect: race-free
// source: particle codes that stage each neighbour box in shared memory,
// the threads walking its particles with a cursor they set back to their
// own index after each walk
// Each block loops over its box's neighbours. In every neighbour the
// threads copy the box's particles into shared memory with a cursor that
// strides by the block size, reset it to their own index, wait, add the
// forces of all the staged particles to their own particles (the cursor
// walks again), reset it once more and wait before the next neighbour
// overwrites the stage. The cursor enters every neighbour at the thread's
// index, so the copies are the thread's own elements.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kPerBox = 100;
constexpr int kThreads = 128;

struct Particle {
  float x, y, z, charge;
};

__global__ void boxForces(const int *box_start, const int *neighbours, const Particle *pos,
                          float *force, int boxes) {
  __shared__ Particle staged[kPerBox];
  int box = blockIdx.x, tx = threadIdx.x, cursor = tx;
  if (box >= boxes)
    return;
  int home = box * kPerBox;
  for (int n = 0; n < 1 + neighbours[box]; n++) {
    int other = box_start[(box + n) % boxes];
    while (cursor < kPerBox) {
      staged[cursor] = pos[other + cursor];
      cursor += kThreads;
    }
    cursor = tx;
    __syncthreads();
    while (cursor < kPerBox) {
      for (int j = 0; j < kPerBox; j++)
        force[home + cursor] += staged[j].charge * (staged[j].x - pos[home + cursor].x);
      cursor += kThreads;
    }
    cursor = tx;
    __syncthreads();
  }
}

int main() {
  const int boxes = 64;
  int *start, *neighbours;
  Particle *pos;
  float *force;
  cudaMalloc(&start, boxes * sizeof(int));
  cudaMalloc(&neighbours, boxes * sizeof(int));
  cudaMalloc(&pos, boxes * kPerBox * sizeof(Particle));
  cudaMalloc(&force, boxes * kPerBox * sizeof(float));
  cudaMemset(start, 0, boxes * sizeof(int));
  cudaMemset(neighbours, 0, boxes * sizeof(int));
  cudaMemset(pos, 0, boxes * kPerBox * sizeof(Particle));
  cudaMemset(force, 0, boxes * kPerBox * sizeof(float));
  boxForces<<<boxes, kThreads>>>(start, neighbours, pos, force, boxes);
  cudaDeviceSynchronize();
  printf("done\n");
  cudaFree(start);
  cudaFree(neighbours);
  cudaFree(pos);
  cudaFree(force);
  return 0;
}

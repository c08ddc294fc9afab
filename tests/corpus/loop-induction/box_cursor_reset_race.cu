// category: loop-induction
// source: particle codes that stage each neighbour box in shared memory,
// the threads walking its particles with a cursor they set back to their
// own index after each walk
// box_cursor_reset_ok without the barrier after the force loop: a thread
// that moves on to the next neighbour overwrites the staged particles that
// slower threads of its block are still reading.
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
      staged[cursor] = pos[other + cursor]; // expect-race(A): intra-block
      cursor += kThreads;
    }
    cursor = tx;
    __syncthreads();
    while (cursor < kPerBox) {
      for (int j = 0; j < kPerBox; j++)
        force[home + cursor] += staged[j].charge * (staged[j].x - pos[home + cursor].x); // expect-race(A): intra-block
      cursor += kThreads;
    }
    cursor = tx;
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
